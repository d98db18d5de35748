#!/usr/bin/env bash
# runner.json `probe`: does NuGet's registry serve the Toolnexus version Runner.csproj pins? A restore of
# a scratch project that references it alone (nothing built; NuGet's HTTP cache bypassed, so the answer
# is the registry's own), in a scratch folder removed afterwards.
set -uo pipefail
cd "$(dirname "$0")"
source ../probe.sh
version=$(sed -n 's/.*Include="Toolnexus" Version="\([^"]*\)".*/\1/p' Runner.csproj)
[[ -n "$version" ]] || { echo "runners/csharp/Runner.csproj has no Toolnexus PackageReference with a Version"; exit 1; }
probe_scratch
cat >"$scratch/probe.csproj" <<XML
<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup><TargetFramework>net10.0</TargetFramework></PropertyGroup>
  <ItemGroup><PackageReference Include="Toolnexus" Version="$version" /></ItemGroup>
</Project>
XML
PROBE_TELLING='error NU[0-9]+' probe_registry 'Connection refused|Name or service not known|No such host is known|Temporary failure in name resolution|Network is unreachable|No route to host' \
  dotnet restore --no-http-cache "$scratch/probe.csproj"
