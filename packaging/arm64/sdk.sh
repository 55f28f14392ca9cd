#!/bin/sh
# Writes the Swift SDK bundle for the sysroot setup.sh made (cheap, so setup.sh writes it on every
# run): `swift build --swift-sdks-path $arm64_sdks --swift-sdk folio-arm64` then compiles for
# arm64 against Debian 13's headers and libraries and the arm64 Swift runtime, linking with lld.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"

bundle="$arm64_sdks/folio-arm64.artifactbundle"
mkdir -p "$bundle/$arm64_triple"
cat > "$bundle/info.json" <<JSON
{
  "schemaVersion": "1.0",
  "artifacts": {
    "folio-arm64": {
      "type": "swiftSDK",
      "version": "6.2.3",
      "variants": [{ "path": "$arm64_triple" }]
    }
  }
}
JSON
cat > "$bundle/$arm64_triple/swift-sdk.json" <<JSON
{
  "schemaVersion": "4.0",
  "targetTriples": {
    "$arm64_triple": {
      "sdkRootPath": "$arm64_sysroot",
      "swiftResourcesPath": "$arm64_sysroot/usr/lib/swift",
      "swiftStaticResourcesPath": "$arm64_sysroot/usr/lib/swift_static",
      "toolsetPaths": ["toolset.json"]
    }
  }
}
JSON
cat > "$bundle/$arm64_triple/toolset.json" <<JSON
{
  "schemaVersion": "1.0",
  "swiftCompiler": { "extraCLIOptions": ["-use-ld=lld"] }
}
JSON

