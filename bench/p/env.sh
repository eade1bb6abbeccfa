# env.sh: sourced (". bench/p/env.sh") before running P's `p`: the
# folder dotnet installs global tools in, and the roll-forward that lets
# P 3.1.0 (built for .NET 8) run on the machine's newer runtime
# (bench/p/install.sh).
PATH="$PATH:$HOME/.dotnet/tools"
DOTNET_ROLL_FORWARD=Major
export PATH DOTNET_ROLL_FORWARD
