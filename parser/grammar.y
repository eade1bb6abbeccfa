/* grammar.y: the P grammar (P 3, with what P 2 wrote that P 3 dropped: doc/p-compatibility.md) plus pcheck's explorers.
** Builds AST nodes in the file's arena; every node spans its source.
** Syntax errors are reported through the Diag with the offending token;
** a keyword of an unsupported construct gets "not supported by pcheck". */
%code requires {
#include "lang/ast.h"
#include "parser/parse.h"
/* A location is a byte span; a rule spans its first to its last symbol. */
#define PP_YYLLOC_DEFAULT(Cur, Rhs, N)                          \
  do {                                                          \
    if (N) {                                                    \
      (Cur).file = YYRHSLOC(Rhs, 1).file;                       \
      (Cur).start = YYRHSLOC(Rhs, 1).start;                     \
      (Cur).end = YYRHSLOC(Rhs, N).end;                         \
    } else {                                                    \
      (Cur).file = YYRHSLOC(Rhs, 0).file;                       \
      (Cur).start = (Cur).end = YYRHSLOC(Rhs, 0).end;           \
    }                                                           \
  } while (0)
#define YYLLOC_DEFAULT PP_YYLLOC_DEFAULT
}

%code provides {
int pp_yylex(PP_YYSTYPE *lval, PP_YYLTYPE *lloc, void *scanner);
}

%code {
#include <config.h>
#include <string.h>
#define YYMAXDEPTH 5000
#define A (ctx->arena)
static Ast *mk(ParseCtx *ctx, AstKind k, Span sp) { return ast_new(ctx->arena, k, sp); }
static Ast *mkname(ParseCtx *ctx, AstKind k, Span sp, const char *name, Span nsp) {
  Ast *n = ast_new(ctx->arena, k, sp);
  n->name = name;
  n->name_span = nsp;
  return n;
}
static Ast *expr1(ParseCtx *ctx, AstKind k, Span sp, Ast *a, Ast *b);
static void unsupported(ParseCtx *ctx, Span sp, const char *what);
static AstList list1(ParseCtx *ctx, Ast *a) { AstList l = {0}; ast_push(ctx->arena, &l, a); return l; }
static Ast *check_body(ParseCtx *ctx, Ast *block);
static Ast *mkfun(ParseCtx *ctx, Span sp, Ast *param, Ast *body);
static Ast *scenario_decl(ParseCtx *ctx, Span all, const char *kw, Span kwsp, const char *name, Span namesp,
                          AstList events, AstList body);
static void pp_yyerror(Span *loc, void *scanner, ParseCtx *ctx, const char *msg);
}

%define api.pure full
%define api.prefix {pp_yy}
%define api.location.type {Span}
%define parse.error custom
%locations
%expect 0
%param {void *scanner}
%parse-param {ParseCtx *ctx}

%initial-action { @$.file = ctx->file; @$.start = @$.end = 0; }

%union {
  Ast *ast;
  AstList lst;
  const char *str;
  int64_t ival;
  double fval;
  struct { const char *s; int64_t len; } sv;
  int op;
}

%token <str> IDENT "identifier" UNSUPPORTED "unsupported keyword"
%token <ival> INTLIT "integer literal"
%token <fval> FLOATLIT "float literal"
%token <sv> STRINGLIT "string literal"
%token ANNOUNCE "announce" ANY "any" AS "as" ASSERT "assert" ASSUME "assume"
%token BOOL "bool" BREAK "break" CASE "case" CHOOSE "choose" COLD "cold"
%token CONTINUE "continue" CREATES "creates" DATA "data" DEFAULT "default"
%token DEFER "defer" DO "do" ELSE "else" ENTRY "entry" ENUM "enum"
%token EVENT "event" EXIT "exit" EXPLORER "explorer" FALSE "false"
%token FLOAT "float" FOREACH "foreach" FORMAT "format" FUN "fun" GOTO "goto"
%token HALT "halt" HOT "hot" IF "if" IGNORE "ignore" IN "in" INT "int"
%token KEYS "keys" MACHINE "machine" MAIN "main" MAP "map" MODULE "module"
%token NEW "new" NULLLIT "null" OBSERVES "observes" ON "on" PARAM "param"
%token PRINT "print" RAISE "raise" RECEIVE "receive" RECEIVES "receives"
%token RETURN "return" SEND "send" SENDS "sends" SEQ "seq" SET "set"
%token SIZEOF "sizeof" SPEC "spec" START "start" STATE "state"
%token STRING "string" TEST "test" THIS "this" TO "to" TRUE "true"
%token TYPE "type" UNION "union" VALUES "values" VAR "var" WHILE "while"
%token WITH "with" COMPOSE "compose" EVENTSET "eventset" HIDEE "hidee"
%token HIDEI "hidei" IMPLEMENTATION "implementation" INTERFACE "interface"
%token REFINES "refines" RENAME "rename"
%token DOLLAR2 "$$" AND "&&" OR "||" EQ "==" NE "!=" LE "<=" GE ">="
%token RARROW "->" PLUSEQ "+=" MINUSEQ "-="

%precedence LOWMOD
%precedence ','
%precedence THEN
%precedence ELSE
%left OR
%left AND
%left EQ NE
%left '<' '>' LE GE IN
%precedence AS TO
%left '+' '-'
%left '*' '/' '%'
%precedence UNARY
%precedence '.' '['

%type <ast> type expr lvalue stmt block fun_decl fun_body anon_handler
%type <ast> opt_ret_type state_decl state_item machine_decl spec_decl
%type <ast> explorer_decl explorer_item modexpr test_decl handler_ref
%type <ast> event_id ne_event paramvals enum_elem opt_expr
%type <ast> annotations
%type <lst> var_decl body_items type_list field_decls args opt_args
%type <lst> event_list ne_event_list machine_body machine_items
%type <lst> state_items explorer_items recv_cases ident_list enum_elems
%type <lst> tuple_elems ntuple_elems paramvals_list stmts
%type <lst> params opt_params opt_payload modexpr_list ref_list opt_ne_event_list
%type <ast> ref opt_assume
%type <ival> opt_wise
%type <op> state_temp
%type <ival> opt_start

%%

program
  : %empty
  | program top_decl
  ;

top_decl
  : EVENT IDENT opt_card ';'
      { Ast *d = mkname(ctx, AST_D_EVENT, @$, $2, @2); ast_push(A, &ctx->program->list, d); }
  | EVENT IDENT opt_card ':' type ';'
      { Ast *d = mkname(ctx, AST_D_EVENT, @$, $2, @2); d->k[0] = $5; ast_push(A, &ctx->program->list, d); }
  | TYPE IDENT '=' type ';'
      { Ast *d = mkname(ctx, AST_D_TYPEDEF, @$, $2, @2); d->k[0] = $4; ast_push(A, &ctx->program->list, d); }
  | TYPE IDENT ';'
      { unsupported(ctx, @$, "foreign types (a type without a definition)"); }
  | ENUM IDENT '{' enum_elems '}'
      { Ast *d = mkname(ctx, AST_D_ENUM, @$, $2, @2); d->list = $4; ast_push(A, &ctx->program->list, d); }
  | machine_decl   { ast_push(A, &ctx->program->list, $1); }
  | spec_decl      { ast_push(A, &ctx->program->list, $1); }
  | fun_decl       { ast_push(A, &ctx->program->list, $1); }
  | explorer_decl  { ast_push(A, &ctx->program->list, $1); }
  | MODULE IDENT '=' modexpr ';'
      { Ast *d = mkname(ctx, AST_D_MODULE, @$, $2, @2); d->k[0] = $4; ast_push(A, &ctx->program->list, d); }
  | test_decl      { ast_push(A, &ctx->program->list, $1); }
  | INTERFACE IDENT '(' ')' RECEIVES opt_ne_event_list ';'
      { Ast *d = mkname(ctx, AST_D_INTERFACE, @$, $2, @2); d->list = $6; ast_push(A, &ctx->program->list, d); }
  | INTERFACE IDENT '(' type ')' RECEIVES opt_ne_event_list ';'
      { Ast *d = mkname(ctx, AST_D_INTERFACE, @$, $2, @2); d->k[0] = $4; d->list = $7;
        ast_push(A, &ctx->program->list, d); }
  | EVENTSET IDENT '=' '{' ne_event_list '}' ';'
      { Ast *d = mkname(ctx, AST_D_EVENTSET, @$, $2, @2); d->list = $5; ast_push(A, &ctx->program->list, d); }
  | IMPLEMENTATION IDENT ':' modexpr ';'
      { Ast *d = mkname(ctx, AST_D_IMPL, @$, $2, @2); d->k[1] = $4; ast_push(A, &ctx->program->list, d); }
  | IMPLEMENTATION IDENT '[' MAIN '=' IDENT ']' ':' modexpr ';'
      { Ast *d = mkname(ctx, AST_D_IMPL, @$, $2, @2); d->k[0] = mkname(ctx, AST_E_NAME, @6, $6, @6); d->k[1] = $9;
        ast_push(A, &ctx->program->list, d); }
  | PARAM IDENT ':' type ';'
      { Ast *d = mkname(ctx, AST_D_PARAM, @$, $2, @2); d->k[0] = $4; ast_push(A, &ctx->program->list, d); }
  ;

/* P 2's bounds on the instances of an event or machine ("assert 3",
** "assume 3") are not P 3's: P 3.1's parser rejects them, and so does
** pcheck, rather than read a bound it would not check. */
opt_card
  : %empty
  | ASSERT INTLIT
      { diag_error(ctx->diag, span_join(@1, @2), "'assert %lld' after a name: bounds on instances are P 2 syntax, "
                   "not P 3's (P 3.1 rejects them); remove it", (long long)$2); ctx->errors++; }
  | ASSUME INTLIT
      { diag_error(ctx->diag, span_join(@1, @2), "'assume %lld' after a name: bounds on instances are P 2 syntax, "
                   "not P 3's (P 3.1 rejects them); remove it", (long long)$2); ctx->errors++; }
  ;

enum_elems
  : enum_elem                 { $$ = list1(ctx, $1); }
  | enum_elems ',' enum_elem  { $$ = $1; ast_push(A, &$$, $3); }
  ;
enum_elem
  : IDENT                     { $$ = mkname(ctx, AST_D_ENUMELEM, @$, $1, @1); }
  | IDENT '=' INTLIT          { $$ = mkname(ctx, AST_D_ENUMELEM, @$, $1, @1); $$->ival = $3; $$->flags |= AF_VALUE; }
  | IDENT '=' '-' INTLIT      { $$ = mkname(ctx, AST_D_ENUMELEM, @$, $1, @1); $$->ival = -$4; $$->flags |= AF_VALUE; }
  ;

/* ---- types ---- */
type
  : INT      { $$ = mk(ctx, AST_T_PRIM, @$); $$->op = PRIM_INT; }
  | BOOL     { $$ = mk(ctx, AST_T_PRIM, @$); $$->op = PRIM_BOOL; }
  | FLOAT    { $$ = mk(ctx, AST_T_PRIM, @$); $$->op = PRIM_FLOAT; }
  | STRING   { $$ = mk(ctx, AST_T_PRIM, @$); $$->op = PRIM_STRING; }
  | EVENT    { $$ = mk(ctx, AST_T_PRIM, @$); $$->op = PRIM_EVENT; }
  | MACHINE  { $$ = mk(ctx, AST_T_PRIM, @$); $$->op = PRIM_MACHINE; }
  | ANY      { $$ = mk(ctx, AST_T_PRIM, @$); $$->op = PRIM_ANY; }
  | DATA     { $$ = mk(ctx, AST_T_PRIM, @$); $$->op = PRIM_DATA; }
  | IDENT    { $$ = mkname(ctx, AST_T_NAMED, @$, $1, @1); }
  | SEQ '[' type ']'           { $$ = mk(ctx, AST_T_SEQ, @$); $$->k[0] = $3; }
  | SET '[' type ']'           { $$ = mk(ctx, AST_T_SET, @$); $$->k[0] = $3; }
  | MAP '[' type ',' type ']'  { $$ = mk(ctx, AST_T_MAP, @$); $$->k[0] = $3; $$->k[1] = $5; }
  | '(' type_list ')'          { $$ = mk(ctx, AST_T_TUPLE, @$); $$->list = $2; }
  | '(' field_decls ')'        { $$ = mk(ctx, AST_T_NTUPLE, @$); $$->list = $2; }
  ;
type_list
  : type                { $$ = list1(ctx, $1); }
  | type_list ',' type  { $$ = $1; ast_push(A, &$$, $3); }
  ;
field_decls
  : IDENT ':' type
      { Ast *f = mkname(ctx, AST_D_VAR, @$, $1, @1); f->k[0] = $3; $$ = list1(ctx, f); }
  | field_decls ',' IDENT ':' type
      { Ast *f = mkname(ctx, AST_D_VAR, span_join(@3, @5), $3, @3); f->k[0] = $5; $$ = $1; ast_push(A, &$$, f); }
  ;

/* ---- machines, specs, explorers ---- */
machine_decl
  : MACHINE IDENT opt_card annotations machine_body
      { $$ = mkname(ctx, AST_D_MACHINE, @$, $2, @2); $$->list = $5; $$->k[0] = $4; }
  ;
/* receives/sends clauses: S_BLOCK with list = received events, list2 = sent
** events, op bit 0 = has a receives clause, bit 1 = has a sends clause. */
annotations
  : %empty                                  { $$ = mk(ctx, AST_S_BLOCK, @$); }
  | annotations RECEIVES opt_ne_event_list ';'
      { $$ = $1; $$->op |= 1; for (int i = 0; i < $3.n; i++) ast_push(A, &$$->list, $3.items[i]); }
  | annotations SENDS opt_ne_event_list ';'
      { $$ = $1; $$->op |= 2; for (int i = 0; i < $3.n; i++) ast_push(A, &$$->list2, $3.items[i]); }
  ;
spec_decl
  : SPEC IDENT OBSERVES ne_event_list machine_body
      { $$ = mkname(ctx, AST_D_MACHINE, @$, $2, @2); $$->flags |= AF_SPEC; $$->list = $5; $$->list2 = $4; }
  /* P's scenario (coverage spec): `scenario` is a contextual keyword, and
  ** the observed events may be written in braces. */
  | IDENT IDENT OBSERVES ne_event_list machine_body
      { $$ = scenario_decl(ctx, @$, $1, @1, $2, @2, $4, $5); }
  | IDENT IDENT OBSERVES '{' ne_event_list '}' machine_body
      { $$ = scenario_decl(ctx, @$, $1, @1, $2, @2, $5, $7); }
  ;
machine_body
  : '{' machine_items '}'  { $$ = $2; }
  ;
machine_items
  : %empty                       { memset(&$$, 0, sizeof $$); }
  | machine_items var_decl       { $$ = $1; for (int i = 0; i < $2.n; i++) ast_push(A, &$$, $2.items[i]); }
  | machine_items fun_decl       { $$ = $1; ast_push(A, &$$, $2); }
  | machine_items state_decl     { $$ = $1; ast_push(A, &$$, $2); }
  ;
explorer_decl
  : EXPLORER IDENT '{' explorer_items '}'
      { $$ = mkname(ctx, AST_D_EXPLORER, @$, $2, @2); $$->list = $4; }
  ;
explorer_items
  : %empty                        { memset(&$$, 0, sizeof $$); }
  | explorer_items var_decl       { $$ = $1; for (int i = 0; i < $2.n; i++) ast_push(A, &$$, $2.items[i]); }
  | explorer_items fun_decl       { $$ = $1; ast_push(A, &$$, $2); }
  | explorer_items explorer_item  { $$ = $1; ast_push(A, &$$, $2); }
  ;
explorer_item
  : ON event_list DO handler_ref  { $$ = mk(ctx, AST_I_ONDO, @$); $$->list = $2; $$->k[0] = $4; }
  ;

var_decl
  : VAR ident_list ':' type ';'
      { $$ = $2; for (int i = 0; i < $$.n; i++) { $$.items[i]->k[0] = $4; $$.items[i]->span = @$; } }
  ;
ident_list
  : IDENT                 { $$ = list1(ctx, mkname(ctx, AST_D_VAR, @1, $1, @1)); }
  | ident_list ',' IDENT  { $$ = $1; ast_push(A, &$$, mkname(ctx, AST_D_VAR, @3, $3, @3)); }
  ;

fun_decl
  : FUN IDENT '(' opt_params ')' opt_ret_type fun_body
      { $$ = mkname(ctx, AST_D_FUN, @$, $2, @2); $$->list = $4; $$->k[0] = $6; $$->k[1] = $7; }
  | FUN IDENT '(' opt_params ')' opt_ret_type ';'
      { $$ = mkname(ctx, AST_D_FUN, @$, $2, @2); $$->list = $4; $$->k[0] = $6; $$->flags |= AF_FOREIGN;
        unsupported(ctx, @$, "foreign functions (functions without a body)"); }
  | FUN IDENT '(' opt_params ')' opt_ret_type CREATES IDENT ';'
      { $$ = mkname(ctx, AST_D_FUN, @$, $2, @2); $$->list = $4; $$->k[0] = $6; $$->flags |= AF_FOREIGN;
        unsupported(ctx, @$, "foreign functions (functions without a body)"); }
  ;
opt_params
  : %empty  { memset(&$$, 0, sizeof $$); }
  | params  { $$ = $1; }
  ;
params
  : IDENT ':' type
      { Ast *p = mkname(ctx, AST_D_VAR, @$, $1, @1); p->k[0] = $3; $$ = list1(ctx, p); }
  | params ',' IDENT ':' type
      { Ast *p = mkname(ctx, AST_D_VAR, span_join(@3, @5), $3, @3); p->k[0] = $5; $$ = $1; ast_push(A, &$$, p); }
  ;
opt_ret_type
  : %empty    { $$ = NULL; }
  | ':' type  { $$ = $2; }
  ;
fun_body
  : '{' body_items '}'  { $$ = mk(ctx, AST_S_BLOCK, @$); $$->list = $2; $$ = check_body(ctx, $$); }
  ;
body_items
  : %empty                { memset(&$$, 0, sizeof $$); }
  | body_items var_decl   { $$ = $1; for (int i = 0; i < $2.n; i++) ast_push(A, &$$, $2.items[i]); }
  | body_items stmt       { $$ = $1; ast_push(A, &$$, $2); }
  ;

state_decl
  : opt_start state_temp STATE IDENT '{' state_items '}'
      { $$ = mkname(ctx, AST_D_STATE, @$, $4, @4); $$->list = $6;
        if ($1) $$->flags |= AF_START;
        $$->flags |= (unsigned)$2; }
  ;
opt_start
  : %empty  { $$ = 0; }
  | START   { $$ = 1; }
  ;
state_temp
  : %empty  { $$ = 0; }
  | HOT     { $$ = AF_HOT; }
  | COLD    { $$ = AF_COLD; }
  ;
state_items
  : %empty                  { memset(&$$, 0, sizeof $$); }
  | state_items state_item  { $$ = $1; ast_push(A, &$$, $2); }
  ;
state_item
  : ENTRY anon_handler      { $$ = mk(ctx, AST_I_ENTRY, @$); $$->k[0] = $2; }
  | ENTRY IDENT ';'         { $$ = mk(ctx, AST_I_ENTRY, @$); $$->k[0] = mkname(ctx, AST_E_NAME, @2, $2, @2); }
  | EXIT fun_body           { $$ = mk(ctx, AST_I_EXIT, @$); $$->k[0] = mkfun(ctx, @2, NULL, $2); }
  | EXIT IDENT ';'          { $$ = mk(ctx, AST_I_EXIT, @$); $$->k[0] = mkname(ctx, AST_E_NAME, @2, $2, @2); }
  | DEFER ne_event_list ';' { $$ = mk(ctx, AST_I_DEFER, @$); $$->list = $2; }
  | IGNORE ne_event_list ';'{ $$ = mk(ctx, AST_I_IGNORE, @$); $$->list = $2; }
  | ON event_list DO handler_ref
      { $$ = mk(ctx, AST_I_ONDO, @$); $$->list = $2; $$->k[0] = $4; }
  | ON event_list GOTO IDENT ';'
      { $$ = mkname(ctx, AST_I_ONGOTO, @$, $4, @4); $$->list = $2; }
  | ON event_list GOTO IDENT WITH handler_ref
      { $$ = mkname(ctx, AST_I_ONGOTO, @$, $4, @4); $$->list = $2; $$->k[0] = $6; }
  ;
handler_ref
  : IDENT ';'     { $$ = mkname(ctx, AST_E_NAME, @1, $1, @1); }
  | anon_handler  { $$ = $1; }
  ;
anon_handler
  : fun_body                          { $$ = mkfun(ctx, @$, NULL, $1); }
  | '(' IDENT ':' type ')' fun_body
      { Ast *p = mkname(ctx, AST_D_VAR, span_join(@2, @4), $2, @2); p->k[0] = $4; $$ = mkfun(ctx, @$, p, $6); }
  ;
event_list
  : event_id                 { $$ = list1(ctx, $1); }
  | event_list ',' event_id  { $$ = $1; ast_push(A, &$$, $3); }
  ;
event_id
  : ne_event  { $$ = $1; }
  | NULLLIT   { $$ = mkname(ctx, AST_E_NAME, @1, "null", @1); $$->flags |= AF_NULLEV; }
  ;
opt_ne_event_list
  : %empty         { memset(&$$, 0, sizeof $$); }
  | ne_event_list  { $$ = $1; }
  ;
ne_event_list
  : ne_event                    { $$ = list1(ctx, $1); }
  | ne_event_list ',' ne_event  { $$ = $1; ast_push(A, &$$, $3); }
  ;
ne_event
  : IDENT  { $$ = mkname(ctx, AST_E_NAME, @1, $1, @1); }
  | HALT   { $$ = mk(ctx, AST_E_HALT, @1); }
  ;

/* ---- statements ---- */
stmts
  : %empty      { memset(&$$, 0, sizeof $$); }
  | stmts stmt  { $$ = $1; ast_push(A, &$$, $2); }
  | stmts var_decl
      { $$ = $1;
        for (int i = 0; i < $2.n; i++) {
          Ast *v = $2.items[i];
          diag_error(ctx->diag, v->name_span,
                     "variable '%s' must be declared at the start of the function body", v->name);
          ctx->errors++;
        } }
  ;
block
  : '{' stmts '}'  { $$ = mk(ctx, AST_S_BLOCK, @$); $$->list = $2; }
  ;
stmt
  : block                              { $$ = $1; }
  | ASSERT expr ';'                    { $$ = mk(ctx, AST_S_ASSERT, @$); $$->k[0] = $2; }
  | ASSERT expr ',' expr ';'           { $$ = mk(ctx, AST_S_ASSERT, @$); $$->k[0] = $2; $$->k[1] = $4; }
  | PRINT expr ';'                     { $$ = mk(ctx, AST_S_PRINT, @$); $$->k[0] = $2; }
  | RETURN opt_expr ';'                { $$ = mk(ctx, AST_S_RETURN, @$); $$->k[0] = $2; }
  | BREAK ';'                          { $$ = mk(ctx, AST_S_BREAK, @$); }
  | CONTINUE ';'                       { $$ = mk(ctx, AST_S_CONTINUE, @$); }
  | lvalue '=' expr ';'                { $$ = mk(ctx, AST_S_ASSIGN, @$); $$->k[0] = $1; $$->k[1] = $3; }
  | lvalue PLUSEQ '(' expr ',' expr ')' ';'
      { $$ = mk(ctx, AST_S_INSERT, @$); $$->k[0] = $1; $$->k[1] = $4; $$->k[2] = $6; }
  | lvalue PLUSEQ '(' expr ')' ';'     { $$ = mk(ctx, AST_S_ADD, @$); $$->k[0] = $1; $$->k[1] = $4; }
  | lvalue MINUSEQ expr ';'            { $$ = mk(ctx, AST_S_REMOVE, @$); $$->k[0] = $1; $$->k[1] = $3; }
  | WHILE '(' expr ')' stmt            { $$ = mk(ctx, AST_S_WHILE, @$); $$->k[0] = $3; $$->k[1] = $5; }
  | FOREACH '(' IDENT IN expr ')' stmt
      { $$ = mk(ctx, AST_S_FOREACH, @$); $$->k[0] = mkname(ctx, AST_E_NAME, @3, $3, @3); $$->k[1] = $5; $$->k[2] = $7; }
  | IF '(' expr ')' stmt %prec THEN    { $$ = mk(ctx, AST_S_IF, @$); $$->k[0] = $3; $$->k[1] = $5; }
  | IF '(' expr ')' stmt ELSE stmt     { $$ = mk(ctx, AST_S_IF, @$); $$->k[0] = $3; $$->k[1] = $5; $$->k[2] = $7; }
  | NEW IDENT '(' opt_args ')' ';'
      { Ast *e = mkname(ctx, AST_E_NEW, span_join(@1, @5), $2, @2); e->list = $4;
        $$ = mk(ctx, AST_S_NEW, @$); $$->k[0] = e; }
  | IDENT '(' opt_args ')' ';'
      { Ast *e = mkname(ctx, AST_E_CALL, span_join(@1, @4), $1, @1); e->list = $3;
        $$ = mk(ctx, AST_S_CALL, @$); $$->k[0] = e; }
  | RAISE expr opt_payload ';'         { $$ = mk(ctx, AST_S_RAISE, @$); $$->k[0] = $2; $$->list = $3; }
  | SEND expr ',' expr opt_payload ';' { $$ = mk(ctx, AST_S_SEND, @$); $$->k[0] = $2; $$->k[1] = $4; $$->list = $5; }
  | ANNOUNCE expr opt_payload ';'      { $$ = mk(ctx, AST_S_ANNOUNCE, @$); $$->k[0] = $2; $$->list = $3; }
  | GOTO IDENT opt_payload ';'         { $$ = mkname(ctx, AST_S_GOTO, @$, $2, @2); $$->list = $3; }
  | RECEIVE '{' recv_cases '}'         { $$ = mk(ctx, AST_S_RECEIVE, @$); $$->list = $3; }
  | ';'                                { $$ = mk(ctx, AST_S_NOP, @$); }
  ;
opt_payload
  : %empty    { memset(&$$, 0, sizeof $$); }
  | ',' args  { $$ = $2; }
  ;
recv_cases
  : CASE event_list ':' anon_handler
      { Ast *c = mk(ctx, AST_I_CASE, @$); c->list = $2; c->k[0] = $4; $$ = list1(ctx, c); }
  | recv_cases CASE event_list ':' anon_handler
      { Ast *c = mk(ctx, AST_I_CASE, span_join(@2, @5)); c->list = $3; c->k[0] = $5; $$ = $1; ast_push(A, &$$, c); }
  ;
lvalue
  : IDENT                  { $$ = mkname(ctx, AST_E_NAME, @$, $1, @1); }
  | lvalue '.' IDENT       { $$ = expr1(ctx, AST_E_FIELD, @$, $1, NULL); $$->name = $3; $$->name_span = @3; }
  | lvalue '.' INTLIT      { $$ = expr1(ctx, AST_E_TFIELD, @$, $1, NULL); $$->ival = $3; $$->name_span = @3; }
  | lvalue '[' expr ']'    { $$ = expr1(ctx, AST_E_INDEX, @$, $1, $3); }
  ;

/* ---- expressions ---- */
opt_expr
  : %empty  { $$ = NULL; }
  | expr    { $$ = $1; }
  ;
opt_args
  : %empty  { memset(&$$, 0, sizeof $$); }
  | args    { $$ = $1; }
  ;
args
  : expr           { $$ = list1(ctx, $1); }
  | args ',' expr  { $$ = $1; ast_push(A, &$$, $3); }
  ;
expr
  : IDENT          { $$ = mkname(ctx, AST_E_NAME, @$, $1, @1); }
  | INTLIT         { $$ = mk(ctx, AST_E_INT, @$); $$->ival = $1; }
  | FLOATLIT       { $$ = mk(ctx, AST_E_FLOAT, @$); $$->fval = $1; }
  | TRUE           { $$ = mk(ctx, AST_E_BOOL, @$); $$->ival = 1; }
  | FALSE          { $$ = mk(ctx, AST_E_BOOL, @$); $$->ival = 0; }
  | NULLLIT        { $$ = mk(ctx, AST_E_NULL, @$); }
  | THIS           { $$ = mk(ctx, AST_E_THIS, @$); }
  | HALT           { $$ = mk(ctx, AST_E_HALT, @$); }
  | '$'            { $$ = mk(ctx, AST_E_NONDET, @$); }
  | DOLLAR2        { $$ = mk(ctx, AST_E_NONDET, @$); $$->ival = 1; }
  | STRINGLIT      { $$ = mk(ctx, AST_E_STRING, @$); $$->sval = $1.s; $$->ival = $1.len; }
  | '(' expr ')'   { $$ = $2; $$->span = @$; }
  | '(' expr ',' ')'
      { $$ = expr1(ctx, AST_E_TUPLE, @$, NULL, NULL); ast_push(A, &$$->list, $2); $$->depth = $2->depth + 1; }
  | '(' expr ',' tuple_elems ')'
      { $$ = expr1(ctx, AST_E_TUPLE, @$, NULL, NULL); ast_push(A, &$$->list, $2);
        int d = $2->depth;
        for (int i = 0; i < $4.n; i++) { ast_push(A, &$$->list, $4.items[i]); if ($4.items[i]->depth > d) d = $4.items[i]->depth; }
        $$->depth = d + 1; }
  | '(' ntuple_elems ')'
      { $$ = expr1(ctx, AST_E_NTUPLE, @$, NULL, NULL); $$->list = $2;
        int d = 0;
        for (int i = 0; i < $2.n; i++) if ($2.items[i]->depth > d) d = $2.items[i]->depth;
        $$->depth = d + 1; }
  | '(' ntuple_elems ',' ')'
      { $$ = expr1(ctx, AST_E_NTUPLE, @$, NULL, NULL); $$->list = $2;
        int d = 0;
        for (int i = 0; i < $2.n; i++) if ($2.items[i]->depth > d) d = $2.items[i]->depth;
        $$->depth = d + 1; }
  | expr '.' IDENT         { $$ = expr1(ctx, AST_E_FIELD, @$, $1, NULL); $$->name = $3; $$->name_span = @3; }
  | expr '.' INTLIT        { $$ = expr1(ctx, AST_E_TFIELD, @$, $1, NULL); $$->ival = $3; $$->name_span = @3; }
  | expr '[' expr ']'      { $$ = expr1(ctx, AST_E_INDEX, @$, $1, $3); }
  | KEYS '(' expr ')'      { $$ = expr1(ctx, AST_E_KEYS, @$, $3, NULL); }
  | VALUES '(' expr ')'    { $$ = expr1(ctx, AST_E_VALUES, @$, $3, NULL); }
  | SIZEOF '(' expr ')'    { $$ = expr1(ctx, AST_E_SIZEOF, @$, $3, NULL); }
  | DEFAULT '(' type ')'   { $$ = mk(ctx, AST_E_DEFAULT, @$); $$->k[0] = $3; }
  | NEW IDENT '(' opt_args ')'
      { $$ = mkname(ctx, AST_E_NEW, @$, $2, @2); $$->list = $4;
        for (int i = 0; i < $4.n; i++) if ($4.items[i]->depth >= $$->depth) $$->depth = $4.items[i]->depth + 1; }
  | IDENT '(' opt_args ')'
      { $$ = mkname(ctx, AST_E_CALL, @$, $1, @1); $$->list = $3;
        for (int i = 0; i < $3.n; i++) if ($3.items[i]->depth >= $$->depth) $$->depth = $3.items[i]->depth + 1; }
  | '-' expr %prec UNARY   { $$ = expr1(ctx, AST_E_UNARY, @$, $2, NULL); $$->op = '-'; }
  | '!' expr %prec UNARY   { $$ = expr1(ctx, AST_E_UNARY, @$, $2, NULL); $$->op = '!'; }
  | expr '*' expr          { $$ = expr1(ctx, AST_E_BINARY, @$, $1, $3); $$->op = BIN_MUL; }
  | expr '/' expr          { $$ = expr1(ctx, AST_E_BINARY, @$, $1, $3); $$->op = BIN_DIV; }
  | expr '%' expr          { $$ = expr1(ctx, AST_E_BINARY, @$, $1, $3); $$->op = BIN_MOD; }
  | expr '+' expr          { $$ = expr1(ctx, AST_E_BINARY, @$, $1, $3); $$->op = BIN_ADD; }
  | expr '-' expr          { $$ = expr1(ctx, AST_E_BINARY, @$, $1, $3); $$->op = BIN_SUB; }
  | expr AS type           { $$ = expr1(ctx, AST_E_CAST, @$, $1, NULL); $$->k[1] = $3; $$->op = 0; }
  | expr TO type           { $$ = expr1(ctx, AST_E_CAST, @$, $1, NULL); $$->k[1] = $3; $$->op = 1; }
  | expr '<' expr          { $$ = expr1(ctx, AST_E_BINARY, @$, $1, $3); $$->op = BIN_LT; }
  | expr '>' expr          { $$ = expr1(ctx, AST_E_BINARY, @$, $1, $3); $$->op = BIN_GT; }
  | expr LE expr           { $$ = expr1(ctx, AST_E_BINARY, @$, $1, $3); $$->op = BIN_LE; }
  | expr GE expr           { $$ = expr1(ctx, AST_E_BINARY, @$, $1, $3); $$->op = BIN_GE; }
  | expr IN expr           { $$ = expr1(ctx, AST_E_BINARY, @$, $1, $3); $$->op = BIN_IN; }
  | expr EQ expr           { $$ = expr1(ctx, AST_E_BINARY, @$, $1, $3); $$->op = BIN_EQ; }
  | expr NE expr           { $$ = expr1(ctx, AST_E_BINARY, @$, $1, $3); $$->op = BIN_NE; }
  | expr AND expr          { $$ = expr1(ctx, AST_E_BINARY, @$, $1, $3); $$->op = BIN_AND; }
  | expr OR expr           { $$ = expr1(ctx, AST_E_BINARY, @$, $1, $3); $$->op = BIN_OR; }
  | CHOOSE '(' ')'         { $$ = mk(ctx, AST_E_CHOOSE, @$); }
  | CHOOSE '(' expr ')'    { $$ = expr1(ctx, AST_E_CHOOSE, @$, $3, NULL); }
  | FORMAT '(' STRINGLIT opt_payload ')'
      { Ast *s = mk(ctx, AST_E_STRING, @3); s->sval = $3.s; s->ival = $3.len;
        $$ = expr1(ctx, AST_E_FORMAT, @$, s, NULL); $$->list = $4;
        for (int i = 0; i < $4.n; i++) if ($4.items[i]->depth >= $$->depth) $$->depth = $4.items[i]->depth + 1; }
  ;
tuple_elems
  : expr                  { $$ = list1(ctx, $1); }
  | tuple_elems ',' expr  { $$ = $1; ast_push(A, &$$, $3); }
  ;
ntuple_elems
  : IDENT '=' expr
      { Ast *f = mkname(ctx, AST_E_FIELDINIT, @$, $1, @1); f->k[0] = $3; f->depth = $3->depth + 1; $$ = list1(ctx, f); }
  | ntuple_elems ',' IDENT '=' expr
      { Ast *f = mkname(ctx, AST_E_FIELDINIT, span_join(@3, @5), $3, @3); f->k[0] = $5; f->depth = $5->depth + 1;
        $$ = $1; ast_push(A, &$$, f); }
  ;

/* ---- modules and tests ---- */
modexpr
  : '(' modexpr ')'          { $$ = $2; }
  | '{' ref_list '}'         { $$ = mk(ctx, AST_M_SET, @$); $$->list = $2; }
  | IDENT                    { $$ = mkname(ctx, AST_M_NAME, @$, $1, @1); }
  | UNION modexpr ',' modexpr_list %prec LOWMOD
      { $$ = mk(ctx, AST_M_UNION, @$); ast_push(A, &$$->list, $2);
        for (int i = 0; i < $4.n; i++) ast_push(A, &$$->list, $4.items[i]); }
  | COMPOSE modexpr ',' modexpr_list %prec LOWMOD
      { $$ = mk(ctx, AST_M_UNION, @$); $$->op = 1; ast_push(A, &$$->list, $2);
        for (int i = 0; i < $4.n; i++) ast_push(A, &$$->list, $4.items[i]); }
  | HIDEE ne_event_list IN modexpr %prec LOWMOD
      { $$ = mk(ctx, AST_M_HIDEE, @$); $$->list2 = $2; $$->k[0] = $4; }
  | HIDEI ref_list IN modexpr %prec LOWMOD
      { $$ = mk(ctx, AST_M_HIDEI, @$); $$->list2 = $2; $$->k[0] = $4; }
  | RENAME IDENT TO IDENT IN modexpr %prec LOWMOD
      { $$ = mk(ctx, AST_M_RENAME, @$); $$->k[1] = mkname(ctx, AST_E_NAME, @2, $2, @2);
        $$->k[2] = mkname(ctx, AST_E_NAME, @4, $4, @4); $$->k[0] = $6; }
  | ASSERT ref_list IN modexpr %prec LOWMOD
      { $$ = mk(ctx, AST_M_ASSERT, @$); $$->list2 = $2; $$->k[0] = $4; }
  | MAIN IDENT IN modexpr %prec LOWMOD
      { $$ = mk(ctx, AST_M_MAIN, @$); $$->k[0] = mkname(ctx, AST_E_NAME, @2, $2, @2); $$->k[1] = $4; }
  ;
modexpr_list
  : modexpr                   { $$ = list1(ctx, $1); }
  | modexpr_list ',' modexpr  { $$ = $1; ast_push(A, &$$, $3); }
  ;
ref_list
  : ref                 { $$ = list1(ctx, $1); }
  | ref_list ',' ref    { $$ = $1; ast_push(A, &$$, $3); }
  ;
ref
  : IDENT               { $$ = mkname(ctx, AST_E_NAME, @$, $1, @1); }
  | IDENT RARROW IDENT  { $$ = mkname(ctx, AST_E_NAME, @$, $1, @1); $$->k[0] = mkname(ctx, AST_E_NAME, @3, $3, @3); }
  ;
test_decl
  : TEST IDENT '[' MAIN '=' IDENT ']' ':' modexpr ';'
      { $$ = mkname(ctx, AST_D_TEST, @$, $2, @2); $$->k[0] = mkname(ctx, AST_E_NAME, @6, $6, @6); $$->k[1] = $9; }
  | TEST IDENT '[' MAIN '=' IDENT ']' ':' modexpr REFINES modexpr ';'
      { $$ = mkname(ctx, AST_D_TEST, @$, $2, @2); $$->k[0] = mkname(ctx, AST_E_NAME, @6, $6, @6); $$->k[1] = $9;
        unsupported(ctx, span_join(@10, @11),
                    "refinement tests ('refines': P's own checker does not run them either)"); }
  | TEST PARAM '(' paramvals_list ')' opt_assume opt_wise IDENT '[' MAIN '=' IDENT ']' ':' modexpr ';'
      { $$ = mkname(ctx, AST_D_TEST, @$, $8, @8); $$->k[0] = mkname(ctx, AST_E_NAME, @12, $12, @12);
        $$->k[1] = $15; $$->list = $4; $$->k[2] = $6; $$->ival = $7; $$->op = 1; }
  ;
opt_assume
  : %empty               { $$ = NULL; }
  | ASSUME '(' expr ')'  { $$ = $3; }
  ;
opt_wise
  : %empty               { $$ = 0; }
  | '(' INTLIT IDENT ')'
      { $$ = $2;
        if (strcmp($3, "wise") != 0) {
          diag_error(ctx->diag, @3, "expected 'wise' after the strength of a combinatorial test, found '%s'", $3);
          ctx->errors++;
        } else if ($2 < 1) {
          diag_error(ctx->diag, @2, "the strength of a combinatorial test must be at least 1");
          ctx->errors++;
        } }
  ;
paramvals_list
  : paramvals                     { $$ = list1(ctx, $1); }
  | paramvals_list ',' paramvals  { $$ = $1; ast_push(A, &$$, $3); }
  ;
paramvals
  : IDENT IN '[' args ']'  { $$ = mkname(ctx, AST_D_PARAMVALS, @$, $1, @1); $$->list = $4; }
  ;

%%

static Ast *expr1(ParseCtx *ctx, AstKind k, Span sp, Ast *a, Ast *b) {
  Ast *n = ast_new(ctx->arena, k, sp);
  n->k[0] = a;
  n->k[1] = b;
  int d = 0;
  if (a && a->depth > d) d = a->depth;
  if (b && b->depth > d) d = b->depth;
  n->depth = d + 1;
  if (n->depth == PARSE_MAX_DEPTH + 1) {
    diag_error(ctx->diag, sp, "expression nested too deeply (more than %d levels)", PARSE_MAX_DEPTH);
    ctx->errors++;
  }
  return n;
}

static void unsupported(ParseCtx *ctx, Span sp, const char *what) {
  diag_error(ctx->diag, sp, "%s are not supported by pcheck", what);
  ctx->errors++;
}

/* Split a function body's items into locals (list2) and statements (list);
** a local after a statement is an error. */
static Ast *check_body(ParseCtx *ctx, Ast *block) {
  AstList items = block->list;
  AstList stmts = {0}, vars = {0};
  for (int i = 0; i < items.n; i++) {
    Ast *it = items.items[i];
    if (it->kind == AST_D_VAR) {
      if (stmts.n) {
        diag_error(ctx->diag, it->name_span,
                   "variable '%s' is declared after a statement; declare locals at the start of the body",
                   it->name);
        ctx->errors++;
      }
      ast_push(ctx->arena, &vars, it);
    } else {
      ast_push(ctx->arena, &stmts, it);
    }
  }
  block->list = stmts;
  block->list2 = vars;
  return block;
}

static Ast *mkfun(ParseCtx *ctx, Span sp, Ast *param, Ast *body) {
  Ast *f = ast_new(ctx->arena, AST_D_FUN, sp);
  if (param) ast_push(ctx->arena, &f->list, param);
  f->k[1] = body;
  return f;
}

static const char *unsupported_what(const char *w) {
  static const struct { const char *word, *what; } tab[] = {
    {"pure", "pure functions (verification-only)"}, {"invariant", "invariants (verification-only)"},
    {"axiom", "axioms (verification-only)"}, {"init-condition", "init conditions (verification-only)"},
    {"Lemma", "lemmas (verification-only)"}, {"Theorem", "theorems (verification-only)"},
    {"Proof", "proofs (verification-only)"}, {"forall", "quantifiers (verification-only)"},
    {"exists", "quantifiers (verification-only)"}, {"is", "'is' tests (verification-only)"},
    {"targets", "'targets' (verification-only)"}, {"inflight", "'inflight' (verification-only)"},
    {"sent", "'sent' (verification-only)"},
    {"@", "annotations ('@')"},
  };
  for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
    if (strcmp(tab[i].word, w) == 0) return tab[i].what;
  return "this construct";
}

/* A token as messages show it: keywords and punctuation in quotes. */
static void put_token(Buf *b, yysymbol_kind_t t) {
  const char *n = yysymbol_name(t);
  if (n[0] == '\'' || strchr(n, ' ') || strcmp(n, "identifier") == 0) buf_puts(b, n);
  else buf_printf(b, "'%s'", n);
}

static int yyreport_syntax_error(const yypcontext_t *yyctx, void *scanner, ParseCtx *ctx) {
  (void)scanner;
  yysymbol_kind_t tok = yypcontext_token(yyctx);
  Span sp = *yypcontext_location(yyctx);
  ctx->errors++;
  if (tok == YYSYMBOL_UNSUPPORTED) {
    const SrcFile *f = &ctx->diag->files[sp.file];
    char word[32];
    size_t n = sp.end - sp.start;
    if (n >= sizeof word) n = sizeof word - 1;
    memcpy(word, f->text + sp.start, n);
    word[n] = 0;
    /* Where a name may stand and the word is followed by what follows a
    ** name (a declaration's ':', an assignment's '=', ';', ',', ')', ']'),
    ** not by a quantifier's or a pure function's parts, it is used as a
    ** name: P 3 reserves it. */
    yysymbol_kind_t want[YYNTOKENS];
    int nwant = yypcontext_expected_tokens(yyctx, want, YYNTOKENS), as_name = 0;
    for (int i = 0; i < nwant; i++) as_name |= want[i] == YYSYMBOL_IDENT;
    const char *after = f->text + sp.end;
    while (*after == ' ' || *after == '\t' || *after == '\n' || *after == '\r') after++;
    if (!*after || !strchr(":=;,)]", *after) || (after[0] == '=' && after[1] == '=')) as_name = 0;
    if (as_name && word[0] != '@')
      diag_error(ctx->diag, sp, "'%s' is a keyword of P 3 (%s), not a name: rename it (P's compiler rejects it "
                 "too: it is only supported by P's verifier)", word, unsupported_what(word));
    else diag_error(ctx->diag, sp, "'%s': %s are not supported by pcheck", word, unsupported_what(word));
    return 0;
  }
  if (tok == YYSYMBOL_YYUNDEF || ctx->lex_fatal) return 0;   /* the scanner already reported it */
  Buf b;
  buf_init(&b);
  if (tok == YYSYMBOL_YYEOF) {
    buf_puts(&b, "unexpected end of file");
  } else {
    buf_puts(&b, "unexpected ");
    put_token(&b, tok);
  }
  yysymbol_kind_t expected[6];
  int n = yypcontext_expected_tokens(yyctx, expected, 6);
  if (n > 0 && n < 6) {
    for (int i = 0; i < n; i++) {
      buf_puts(&b, i == 0 ? ", expecting " : " or ");
      put_token(&b, expected[i]);
    }
  }
  diag_error(ctx->diag, sp, "syntax error: %s", b.data);
  buf_fini(&b);
  return 0;
}

/* `scenario Name observes ... { states }`: a spec with AF_SCENARIO; any
** other word where `scenario` should be is a syntax error. */
static Ast *scenario_decl(ParseCtx *ctx, Span all, const char *kw, Span kwsp, const char *name, Span namesp,
                          AstList events, AstList body) {
  if (strcmp(kw, "scenario") != 0) {
    diag_error(ctx->diag, kwsp, "syntax error: unexpected identifier '%s' at the top level (a declaration starts "
               "with a keyword: machine, spec, scenario, event, type, enum, fun, module, test, ...)", kw);
    ctx->errors++;
  }
  Ast *d = mkname(ctx, AST_D_MACHINE, all, name, namesp);
  d->flags |= AF_SPEC | AF_SCENARIO;
  d->list = body;
  d->list2 = events;
  return d;
}

static void pp_yyerror(Span *loc, void *scanner, ParseCtx *ctx, const char *msg) {
  (void)scanner;
  ctx->errors++;
  if (strstr(msg, "exhausted"))
    diag_error(ctx->diag, *loc, "program nested too deeply for the parser");
  else
    diag_error(ctx->diag, *loc, "%s", msg);
}
