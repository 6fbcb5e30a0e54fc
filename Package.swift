// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Sift",
    products: [
        .library(name: "Sift", targets: ["Sift"]),
        // Test doubles for an app's tests: a spy index and a donation recorder.
        .library(name: "SiftTestSupport", targets: ["SiftTestSupport"]),
        .executable(name: "sift", targets: ["sift"]),
        .executable(name: "sift-bench", targets: ["sift-bench"]),
        .executable(name: "sift-train", targets: ["sift-train"]),
        .executable(name: "sift-example", targets: ["sift-example"]),
    ],
    targets: [
        .systemLibrary(
            name: "CBLAS", pkgConfig: "openblas",
            providers: [.apt(["libopenblas-dev"])]),
        .systemLibrary(
            name: "CLAPACKE", pkgConfig: "lapacke",
            providers: [.apt(["liblapacke-dev"])]),
        .systemLibrary(
            name: "CSQLite", pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(
            name: "COpenSSL", pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]),
        // The vector scan's SIMD loops (run-time dispatch to AVX2 / AVX-512 on x86-64).
        .target(name: "CSiftKernels"),
        .target(
            name: "Sift",
            dependencies: ["CBLAS", "CLAPACKE", "CSQLite", "COpenSSL", "CSiftKernels"]),
        // The option parser of the three executables (not a product).
        .target(name: "SiftCommandLine"),
        // Benchmark datasets, retrieval and similarity metrics, the synthetic corpus: used by
        // the CLI's eval, the bench, the trainer and the tests, never linked by a host app.
        .target(name: "SiftEvaluation", dependencies: ["Sift"]),
        .target(name: "SiftTestSupport", dependencies: ["Sift"]),
        .executableTarget(name: "sift", dependencies: ["Sift", "SiftEvaluation", "SiftCommandLine"]),
        .executableTarget(
            name: "sift-bench", dependencies: ["Sift", "SiftEvaluation", "SiftCommandLine", "CSQLite"],
            path: "Benchmarks/sift-bench"),
        .executableTarget(
            name: "sift-train", dependencies: ["Sift", "SiftEvaluation", "SiftCommandLine", "CBLAS", "CLAPACKE"],
            path: "Models/sift-train"),
        .target(name: "SobrietyTracker", dependencies: ["Sift"], path: "Examples/SobrietyTracker"),
        .executableTarget(
            name: "sift-example", dependencies: ["Sift", "SobrietyTracker"],
            path: "Examples/sift-example"),
        .testTarget(
            name: "SiftTests",
            dependencies: ["Sift", "SiftEvaluation", "SiftTestSupport", "CSiftKernels"]),
        .testTarget(name: "SiftCommandLineTests", dependencies: ["SiftCommandLine"]),
        .testTarget(
            name: "SobrietyTrackerTests", dependencies: ["SobrietyTracker", "Sift", "SiftTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
