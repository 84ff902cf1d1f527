// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "lctrace",
    // macOS 13: the oldest macOS that current Xcode releases build for, and above what every dependency asks
    // (hdrhistogram-swift: 10.15). Linux has no platform versions.
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "lctrace", targets: ["lctrace"]),
        .executable(name: "lctrace-loggen", targets: ["lctrace-loggen"]),
        .library(name: "LCTraceKit", targets: ["LCTraceKit"]),
        .plugin(name: "LCTraceCheck", targets: ["LCTraceCheck"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    ],
    targets: [
        // libpcre2-8 through pkg-config; Debian/Ubuntu ship the headers in libpcre2-dev, Homebrew in pcre2.
        .systemLibrary(
            name: "CPCRE2",
            path: "Sources/CPCRE2",
            pkgConfig: "libpcre2-8",
            providers: [.apt(["libpcre2-dev"]), .brew(["pcre2"])]
        ),
        // zlib, for reading gzip-compressed logs; Debian/Ubuntu ship the headers in zlib1g-dev, macOS in its SDK.
        .systemLibrary(
            name: "CZlib",
            path: "Sources/CZlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // A small Swift wrapper over PCRE2: compile once (with JIT), reuse match data, named groups, limits.
        .target(name: "PCRE2", dependencies: ["CPCRE2"]),
        // Everything lctrace knows: ingestion, the lifecycle model and analysis, report rendering.
        .target(
            name: "LCTraceKit",
            dependencies: [
                "PCRE2",
                "CZlib",
                .product(name: "OrderedCollections", package: "swift-collections"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
                .product(name: "Yams", package: "Yams"),
            ],
            // The HTML timeline page's style sheet, skeleton and script, embedded in the library when it is built.
            resources: [
                .embedInCode("Resources/timeline.css"),
                .embedInCode("Resources/timeline.html"),
                .embedInCode("Resources/timeline.js"),
            ]
        ),
        // The command line: flags and orchestration only.
        .executableTarget(
            name: "lctrace",
            dependencies: [
                "LCTraceKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // A deterministic generator of realistic lifecycle logs, for the benchmark and the tests.
        .executableTarget(
            name: "lctrace-loggen",
            dependencies: [
                "LCTraceKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // `swift package lctrace-check LOG…`: lctrace check, built and run by SwiftPM, in any package that depends on
        // lctrace (and in this one), on Linux and macOS.
        .plugin(
            name: "LCTraceCheck",
            capability: .command(intent: .custom(verb: "lctrace-check", description: "Check lifecycle logs with lctrace check")),
            dependencies: ["lctrace"]
        ),
        .testTarget(name: "PCRE2Tests", dependencies: ["PCRE2"]),
        .testTarget(
            name: "LCTraceKitTests",
            dependencies: ["LCTraceKit", "lctrace", "lctrace-loggen"],
            // The fixtures are read where they lie in the repository (`Fixtures.repositoryRoot`), not as resources.
            exclude: ["Fixtures"],
            resources: [.copy("Golden")]
        ),
    ]
)
