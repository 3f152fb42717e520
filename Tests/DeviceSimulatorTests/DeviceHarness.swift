import AsyncSupport
import DeviceInterfaces
import DeviceSimulator
import Foundation
import LocationBridge
import PetSpotDomain

/// A simulated device on a test clock, with shortcuts for reading its log.
@MainActor
struct DeviceHarness {
    let clock = VirtualClock()
    let device: SimulatedDevice

    static let home: GeoCoordinate = {
        guard let home = try? GeoCoordinate(latitude: 52.2297, longitude: 21.0122) else {
            preconditionFailure("a valid test coordinate")
        }
        return home
    }()

    init(_ configure: (inout DeviceConfiguration) -> Void = { _ in }) {
        var configuration = DeviceConfiguration(
            infoPlistKeys: [InfoPlistRequirement.locationWhenInUse.key],
            location: DeviceConfiguration.Location(position: Self.home)
        )
        configure(&configuration)
        device = SimulatedDevice(configuration: configuration, clock: clock)
    }

    /// Advances virtual time and lets the device run what became due.
    func advance(by duration: Duration) async {
        clock.advance(by: duration)
        device.runDueWork()
    }

    /// Every delegate callback so far, for all managers, in order.
    var callbacks: [LocationManagerEvent] {
        device.log.compactMap {
            if case .delegateCallback(_, let callback) = $0.event { callback } else { nil }
        }
    }

    /// Authorization callbacks only.
    var authorizationCallbacks: [LocationPermissionStatus] {
        callbacks.compactMap {
            if case .authorizationChanged(let status, _) = $0 { status } else { nil }
        }
    }

    /// Scene changes so far, as "from>to".
    var sceneChanges: [String] {
        device.log.compactMap {
            if case .sceneChanged(let from, let to) = $0.event { "\(from.rawValue)>\(to.rawValue)" } else { nil }
        }
    }

    /// The events of the log, without times.
    var events: [DeviceEvent] { device.log.map(\.event) }

    /// Launches the app and lets the creation callback arrive.
    func launched() async throws -> SimulatedLocationManager {
        let manager = try device.launch()
        await advance(by: .zero)
        return manager
    }

    /// Everything `manager` will still deliver: ends the app's process (which finishes the stream) and
    /// collects what remained.
    func remainingEvents(
        of iterator: inout AsyncStream<LocationManagerEvent>.Iterator
    ) async throws -> [LocationManagerEvent] {
        if device.scenePhase != .notRunning { try device.terminate() }
        var rest: [LocationManagerEvent] = []
        while let event = await iterator.next(isolation: #isolation) { rest.append(event) }
        return rest
    }
}
