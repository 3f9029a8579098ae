// swift-tools-version:6.0
import PackageDescription

// A small program on Lodestone's Swift API: true heading and turn advice.
let package = Package(
    name: "TrueHeading",
    dependencies: [.package(name: "Lodestone", path: "../..")],
    targets: [
        .executableTarget(name: "TrueHeading", dependencies: [.product(name: "Lodestone", package: "Lodestone")]),
    ],
    swiftLanguageModes: [.v6]
)
