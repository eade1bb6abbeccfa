#!/bin/sh
# install.sh: P's own compiler and checker beside pcheck, for the
# side-by-side benchmarks and the agreement tests (never for pcheck
# itself, which stays C).  P 3.1.0 is the .NET tool `p` on NuGet:
#   dotnet tool install --global p --version 3.1.0
# It targets .NET 8; where the machine's SDK and runtime are newer (10 on
# this machine kind), `p compile` still builds its generated project
# (net8.0, restored from NuGet), and `p` and the generated checker run on
# the newer runtime with DOTNET_ROLL_FORWARD=Major (without it: "You must
# install or update .NET to run this application ... version '8.0.0'").
# Usage: bench/p/install.sh; then, in the shell that runs P:
#   . bench/p/env.sh        (PATH and DOTNET_ROLL_FORWARD)
# Exit 0 when `p` runs, 2 when it cannot be had here (said on stderr).
set -u
command -v dotnet >/dev/null 2>&1 || { echo "install.sh: no dotnet on PATH: P's checker needs the .NET SDK" >&2; exit 2; }
if ! "$HOME/.dotnet/tools/p" --version >/dev/null 2>&1 && ! DOTNET_ROLL_FORWARD=Major "$HOME/.dotnet/tools/p" --version >/dev/null 2>&1; then
  dotnet tool install --global p --version 3.1.0 >/dev/null 2>&1 ||
    dotnet tool update --global p --version 3.1.0 >/dev/null 2>&1 ||
    { echo "install.sh: 'dotnet tool install --global p --version 3.1.0' failed (is NuGet reachable?)" >&2; exit 2; }
fi
. "$(dirname "$0")/env.sh"
p --version >/dev/null 2>&1 || { echo "install.sh: p is installed but does not run (DOTNET_ROLL_FORWARD=Major)" >&2; exit 2; }
echo "P: $(p --version 2>/dev/null | head -n 1) ($HOME/.dotnet/tools/p; . bench/p/env.sh to use it)"
