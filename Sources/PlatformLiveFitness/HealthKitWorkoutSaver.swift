#if canImport(HealthKit) && canImport(CoreLocation)
    import CoreLocation
    import DeviceInterfaces
    import Foundation
    import HealthKit
    import PetSpotDomain

    /// ``WorkoutSaving`` over HealthKit: the walk as an outdoor walking workout (`HKWorkoutBuilder`)
    /// with its distance and steps, then its route (`HKWorkoutRouteBuilder`), as Apple's "Creating a
    /// workout route" does (rule 34).
    ///
    /// Every object saved carries the walk's sync identifier and version (rule 34): when the app's
    /// process ended mid-save and the next launch saves the walk again, the new objects replace what
    /// the first attempt left instead of adding a second workout.
    @MainActor
    public final class HealthKitWorkoutSaver: WorkoutSaving {
        private let store: HKHealthStore

        public init(store: HKHealthStore = HKHealthStore()) {
            self.store = store
        }

        public func saveWalk(_ workout: WalkWorkout) async throws(WorkoutSaveError) {
            guard HKHealthStore.isHealthDataAvailable() else { throw .unavailable }
            do {
                try await Self.save(workout, in: store)
            } catch let error as HKError {
                switch error.code {
                case .errorAuthorizationDenied, .errorAuthorizationNotDetermined: throw .notAuthorized
                case .errorHealthDataUnavailable: throw .unavailable
                @unknown default: throw .failed(String(describing: error))
                }
            } catch {
                throw .failed(error.localizedDescription)
            }
        }

        /// Off the main actor: the builders are not `Sendable`, so they live and die in this one call.
        private nonisolated static func save(_ workout: WalkWorkout, in store: HKHealthStore) async throws {
            let configuration = HKWorkoutConfiguration()
            configuration.activityType = .walking
            configuration.locationType = .outdoor
            let builder = HKWorkoutBuilder(healthStore: store, configuration: configuration, device: .local())
            func sync(_ part: String) -> [String: Any] {
                [HKMetadataKeySyncIdentifier: workout.syncIdentifier + part, HKMetadataKeySyncVersion: workout.syncVersion]
            }
            try await builder.beginCollection(at: workout.start)
            try await builder.addMetadata(sync(""))
            // The Health sheet has a switch per type: a sample of a type the person turned off would
            // fail the whole save, so only the types the app may save go in (the workout still does).
            func maySave(_ type: HKQuantityType) -> Bool { store.authorizationStatus(for: type) == .sharingAuthorized }
            var samples: [HKSample] = []
            if maySave(HKQuantityType(.distanceWalkingRunning)) {
                samples.append(HKQuantitySample(
                    type: HKQuantityType(.distanceWalkingRunning),
                    quantity: HKQuantity(unit: .meter(), doubleValue: workout.distanceMetres),
                    start: workout.start, end: workout.end, metadata: sync(".distance")
                ))
            }
            if let steps = workout.steps, maySave(HKQuantityType(.stepCount)) {
                samples.append(HKQuantitySample(
                    type: HKQuantityType(.stepCount), quantity: HKQuantity(unit: .count(), doubleValue: Double(steps)),
                    start: workout.start, end: workout.end, metadata: sync(".steps")
                ))
            }
            if !samples.isEmpty { try await builder.addSamples(samples) }
            try await builder.endCollection(at: workout.end)
            // Nil without an error: saved, but the phone is locked and the workout cannot be read back
            // to attach the route to. The walk is in Health; its route is not.
            guard let saved = try await builder.finishWorkout() else { return }
            let points = workout.route.joined().map { point in
                CLLocation(
                    coordinate: CLLocationCoordinate2D(latitude: point.latitude, longitude: point.longitude),
                    altitude: 0, horizontalAccuracy: point.horizontalAccuracy, verticalAccuracy: -1, timestamp: point.timestamp
                )
            }
            guard !points.isEmpty else { return }
            let route = HKWorkoutRouteBuilder(healthStore: store, device: .local())
            try await route.insertRouteData(points)
            _ = try await route.finishRoute(with: saved, metadata: sync(".route"))
        }
    }
#endif
