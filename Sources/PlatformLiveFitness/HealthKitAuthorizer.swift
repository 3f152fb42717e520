#if canImport(HealthKit)
    import HealthKit
    import DeviceInterfaces

    /// ``HealthAuthorizing`` over `HKHealthStore`, with HealthKit's async variants (which resume on
    /// the caller's actor, so HealthKit's background completion queue never reaches the main actor).
    @MainActor
    public final class HealthKitAuthorizer: HealthAuthorizing {
        private let store: HKHealthStore

        public init(store: HKHealthStore = HKHealthStore()) {
            self.store = store
        }

        public var isHealthDataAvailable: Bool {
            HKHealthStore.isHealthDataAvailable()
        }

        public func authorizationStatus(for type: HealthDataType) -> HealthShareStatus {
            HealthShareStatus(rawAuthorizationStatus: store.authorizationStatus(for: Self.sampleType(type)).rawValue)
        }

        public func requestStatus(
            toShare share: Set<HealthDataType>,
            read: Set<HealthDataType>
        ) async throws -> HealthRequestStatus {
            let status = try await store.statusForAuthorizationRequest(
                toShare: Set(share.map(Self.sampleType)),
                read: Set(read.map(Self.objectType))
            )
            return HealthRequestStatus(rawRequestStatus: status.rawValue)
        }

        /// Returns true once the sheet is done: like HealthKit's `success`, it says nothing about
        /// what was granted (rule 25).
        public func requestAuthorization(
            toShare share: Set<HealthDataType>,
            read: Set<HealthDataType>
        ) async throws -> Bool {
            try await store.requestAuthorization(
                toShare: Set(share.map(Self.sampleType)),
                read: Set(read.map(Self.objectType))
            )
            return true
        }

        private static func objectType(_ type: HealthDataType) -> HKObjectType {
            sampleType(type)
        }

        private static func sampleType(_ type: HealthDataType) -> HKSampleType {
            switch type {
            case .workout: HKObjectType.workoutType()
            case .workoutRoute: HKSeriesType.workoutRoute()
            case .stepCount: HKQuantityType(.stepCount)
            case .distanceWalkingRunning: HKQuantityType(.distanceWalkingRunning)
            case .activeEnergyBurned: HKQuantityType(.activeEnergyBurned)
            }
        }
    }
#endif
