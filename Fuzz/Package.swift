// swift-tools-version:6.0
// The libFuzzer target for lctrace's parsers: a package of its own, so that the main package's `swift build` and
// `swift test` never build it. Build it with the fuzzer and address sanitizer on every module, and on Linux with lld
// (README.md here says why):
//
//     swift build -c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library \
//       -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld
import PackageDescription

let package = Package(
    name: "lctrace-fuzz",
    // The main package's: a package cannot depend on one that needs a newer macOS than its own.
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "lctrace", path: ".."),
    ],
    targets: [
        .executableTarget(
            name: "lctrace-fuzz",
            dependencies: [.product(name: "LCTraceKit", package: "lctrace")]
        ),
    ]
)
