// swift-tools-version:6.0
import PackageDescription

/// Every target builds in Swift 6 language mode with the same strictness.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let concurrencyExtras: Target.Dependency = .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras")
let customDump: Target.Dependency = .product(name: "CustomDump", package: "swift-custom-dump")
let logging: Target.Dependency = .product(name: "Logging", package: "swift-log")

let package = Package(
    name: "PetSpot",
    defaultLocalization: "en",
    platforms: [.iOS(.v17), .macOS(.v14)],
    products: [
        .executable(name: "petspot", targets: ["petspot"]),
        .library(name: "PetSpotDomain", targets: ["PetSpotDomain"]),
        .library(name: "AsyncSupport", targets: ["AsyncSupport"]),
        .library(name: "DeviceInterfaces", targets: ["DeviceInterfaces"]),
        .library(name: "Localization", targets: ["Localization"]),
        .library(name: "LocationBridge", targets: ["LocationBridge"]),
        .library(name: "DeviceSimulator", targets: ["DeviceSimulator"]),
        .library(name: "Permissions", targets: ["Permissions"]),
        .library(name: "StartupFeature", targets: ["StartupFeature"]),
        .library(name: "CoreUI", targets: ["CoreUI"]),
        .library(name: "AppUI", targets: ["AppUI"]),
        .library(name: "PaintMyTownUI", targets: ["PaintMyTownUI"]),
        .library(name: "AppFeature", targets: ["AppFeature"]),
        .library(name: "WalkFeature", targets: ["WalkFeature"]),
        .library(name: "PaintMyTownFeature", targets: ["PaintMyTownFeature"]),
        .library(name: "PlatformLive", targets: ["PlatformLive"]),
        .library(name: "PlatformLiveFitness", targets: ["PlatformLiveFitness"]),
        .library(name: "PetAPI", targets: ["PetAPI"]),
        .library(name: "PetServer", targets: ["PetServer"]),
        .library(name: "TestSupport", targets: ["TestSupport"]),
        .library(name: "AppiumSimulator", targets: ["AppiumSimulator"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/pointfreeco/swift-concurrency-extras", from: "1.4.3"),
        .package(url: "https://github.com/pointfreeco/swift-custom-dump", from: "1.7.3"),
        .package(url: "https://github.com/pointfreeco/xctest-dynamic-overlay", from: "1.13.1"),
    ],
    targets: [
        // MARK: App core: the logic both apps share; builds and is tested everywhere
        .target(name: "PetSpotDomain", swiftSettings: swiftSettings),
        // The one exactly-once, cancellation-releasing waiter, `Deadline` and `VirtualClock`.
        .target(name: "AsyncSupport", swiftSettings: swiftSettings),
        // Languages, plural rules, string tables and distances in the person's units.
        .target(name: "Localization", resources: [.process("Resources")], swiftSettings: swiftSettings),
        // What the app uses of the platform (CoreLocation, CoreMotion, HealthKit, Info.plist), as
        // protocols and domain mirrors: the simulated iPhone and the Apple adapters depend on this alone.
        .target(name: "DeviceInterfaces", dependencies: ["PetSpotDomain"], swiftSettings: swiftSettings),
        .target(
            name: "LocationBridge",
            dependencies: ["PetSpotDomain", "DeviceInterfaces", "AsyncSupport"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "DeviceSimulator",
            dependencies: ["PetSpotDomain", "DeviceInterfaces", "AsyncSupport"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "Permissions",
            dependencies: ["PetSpotDomain", "DeviceInterfaces", "LocationBridge", "Localization", "AsyncSupport"],
            resources: [.process("Resources")],
            swiftSettings: swiftSettings
        ),

        // MARK: PetSpot: the listing's startup flow, the app-wide state, the API's types and client
        .target(
            name: "StartupFeature",
            dependencies: ["PetSpotDomain", "DeviceInterfaces", "Localization", "AsyncSupport"],
            resources: [.process("Resources")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "AppFeature",
            dependencies: ["StartupFeature", "Permissions", "LocationBridge", "DeviceInterfaces", "PetSpotDomain", "Localization", "AsyncSupport", logging],
            swiftSettings: swiftSettings
        ),
        .target(name: "PetAPI", dependencies: ["PetSpotDomain"], swiftSettings: swiftSettings),

        // MARK: Paint My Town: the walk and the app-wide state
        // Paint My Town's walk: the route, auto-pause, steps and the town painted, as a pure machine.
        .target(name: "WalkFeature", dependencies: ["PetSpotDomain", "DeviceInterfaces", "AsyncSupport"], swiftSettings: swiftSettings),
        // Paint My Town's app-wide state (the guide's AppState): permissions, onboarding, the walk.
        .target(
            name: "PaintMyTownFeature",
            dependencies: ["WalkFeature", "Permissions", "LocationBridge", "DeviceInterfaces", "AsyncSupport", "PetSpotDomain", "Localization"],
            resources: [.process("Resources")],
            swiftSettings: swiftSettings
        ),

        // MARK: The apps' Apple-only code: adapters and SwiftUI
        // Every file is wrapped whole in `#if canImport(...)`: empty on Linux, type-checked against stubs.
        // CoreLocation alone: what PetSpot links.
        .target(
            name: "PlatformLive",
            dependencies: ["PetSpotDomain", "DeviceInterfaces"],
            swiftSettings: swiftSettings
        ),
        // CoreMotion and HealthKit: only an app with a feature that uses them links this (Paint My Town).
        .target(
            name: "PlatformLiveFitness",
            dependencies: ["DeviceInterfaces", "PetSpotDomain"],
            swiftSettings: swiftSettings
        ),
        // The SwiftUI both apps share: the permissions screen and its "Learn more" details, in each
        // app's words, and SwiftUI's scene phase as the app models take it.
        .target(
            name: "CoreUI",
            dependencies: ["Permissions", "DeviceInterfaces"],
            swiftSettings: swiftSettings
        ),
        // PetSpot's SwiftUI screens.
        .target(
            name: "AppUI",
            dependencies: ["PetSpotDomain", "DeviceInterfaces", "StartupFeature", "Permissions", "CoreUI", "AppFeature", "Localization"],
            swiftSettings: swiftSettings
        ),
        // Paint My Town's SwiftUI screens: PetSpot's listing is none of its business.
        .target(
            name: "PaintMyTownUI",
            dependencies: ["CoreUI", "PaintMyTownFeature", "DeviceInterfaces"],
            swiftSettings: swiftSettings
        ),

        // MARK: Server: the listing API over SQLite or PostgreSQL
        .target(
            name: "PetServer",
            dependencies: [
                "PetAPI",
                "PetSpotDomain",
                "AsyncSupport",
                logging,
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "DequeModule", package: "swift-collections"),
            ],
            resources: [.copy("Resources/openapi.yaml"), .copy("Resources/places.tsv"), .copy("Resources/places-sample.tsv")],
            swiftSettings: swiftSettings
        ),

        // MARK: Tooling: the scenario runner, the simulated iPhone behind Appium, the command line, test doubles
        .target(
            name: "ScenarioRunner",
            dependencies: [
                "PetSpotDomain", "AsyncSupport", "DeviceInterfaces", "LocationBridge", "DeviceSimulator", "StartupFeature", "PetAPI",
                "Permissions", "AppFeature", "PaintMyTownFeature", "WalkFeature", "Localization", concurrencyExtras, logging,
            ],
            resources: [.copy("Scenarios"), .process("Resources")],
            swiftSettings: swiftSettings
        ),
        // The simulated iPhone behind the WebDriver/Appium XCUITest commands the E2E suite uses.
        .target(
            name: "AppiumSimulator",
            dependencies: [
                "ScenarioRunner", "AsyncSupport", "PetSpotDomain", "DeviceSimulator", "Localization", "StartupFeature", logging,
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "petspot",
            dependencies: [
                "PetSpotDomain", "DeviceInterfaces", "Permissions", "PetAPI", "PetServer", "ScenarioRunner", "Localization", logging,
                "AppiumSimulator",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "TestSupport",
            dependencies: [
                "PetSpotDomain", "DeviceInterfaces", "LocationBridge", "AsyncSupport", "AppFeature", "Permissions", logging,
            ],
            swiftSettings: swiftSettings
        ),

        // MARK: Tests
        .testTarget(
            name: "PetSpotDomainTests",
            dependencies: ["PetSpotDomain"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "AsyncSupportTests",
            dependencies: ["AsyncSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "LocalizationTests",
            dependencies: ["Localization"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "LocationBridgeTests",
            dependencies: ["AsyncSupport", "DeviceInterfaces", "LocationBridge", "DeviceSimulator", "PetSpotDomain", "TestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "DeviceSimulatorTests",
            dependencies: ["AsyncSupport", "DeviceInterfaces", "DeviceSimulator", "LocationBridge", "Permissions", "PetSpotDomain"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PermissionsTests",
            dependencies: ["AsyncSupport", "DeviceInterfaces", "Permissions", "DeviceSimulator", "LocationBridge", "PetSpotDomain", "TestSupport", "Localization"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "StartupFeatureTests",
            dependencies: [
                "AsyncSupport", "AppFeature", "Permissions",
                "DeviceInterfaces", "StartupFeature", "PetSpotDomain", "LocationBridge", "DeviceSimulator", "TestSupport",
                "Localization", customDump,
                // Without it, a failed expectNoDifference is printed and the test still passes.
                .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "AppFeatureTests",
            dependencies: [
                "AsyncSupport",
                "DeviceInterfaces", "AppFeature", "StartupFeature", "Permissions", "LocationBridge", "DeviceSimulator", "PetSpotDomain",
                "TestSupport", concurrencyExtras, logging,
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ScenarioRunnerTests",
            dependencies: ["ScenarioRunner", "AsyncSupport", "DeviceInterfaces", "PetSpotDomain", "PetAPI", "StartupFeature", "Localization", "WalkFeature"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "AppiumSimulatorTests",
            dependencies: [
                "AppiumSimulator", "PetServer", "AsyncSupport", "ScenarioRunner", "StartupFeature", "PaintMyTownFeature", "Permissions",
                logging,
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "WalkFeatureTests",
            dependencies: ["WalkFeature", "AsyncSupport", "DeviceInterfaces", "PetSpotDomain", "TestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PaintMyTownFeatureTests",
            dependencies: [
                "PaintMyTownFeature", "WalkFeature", "Permissions", "DeviceInterfaces", "DeviceSimulator", "PetSpotDomain",
                "TestSupport",
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PetAPITests",
            dependencies: ["PetAPI", "PetSpotDomain"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PetServerTests",
            dependencies: [
                "AsyncSupport",
                "PetServer", "PetAPI", "PetSpotDomain", logging,
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
