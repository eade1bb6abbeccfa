/* choice.h: one choice of an execution, as vm_step takes it (vm/vm.h):
** what traces, trace trees and schedules are made of. */
#ifndef PCHECK_CHOICE_H
#define PCHECK_CHOICE_H
#include <stdint.h>

typedef struct TraceChoice {
  uint8_t kind;              /* VC_MACHINE or VC_DATA */
  uint32_t value;            /* machine id, or option index */
} TraceChoice;

#endif
