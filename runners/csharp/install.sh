#!/usr/bin/env bash
# Convenience wrapper of the manifest's install command (runner.json runs dotnet directly):
# restores the published port (NuGet Toolnexus, pinned [0.16.0] in Runner.csproj) and builds bin/Runner.dll.
set -uo pipefail
cd "$(dirname "$0")"
exec dotnet build -c Release -o bin
