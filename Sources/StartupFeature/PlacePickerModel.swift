import Foundation
import Localization
import Observation
import PetSpotDomain

/// The place picker: what the person types, the suggestions for it, and whether they could be had.
///
/// A search starts ``debounce`` after the last keystroke (each keystroke cancels the one waiting),
/// and only the answer to the latest text is shown: an older answer arriving late is dropped, so a
/// slow reply to "ly" never replaces the one to "lyon". A failure says so and keeps what was typed.
@MainActor
@Observable
public final class PlacePickerModel {
    public enum Status: Equatable, Sendable {
        /// Nothing typed, or the suggestions for the text are showing.
        case idle
        /// Waiting for the debounce or the answer.
        case searching
        /// The suggestions could not be had (the network failed); the text stays.
        case failed
    }

    public private(set) var text = ""
    public private(set) var suggestions: [Place] = []
    public private(set) var status: Status = .idle

    /// Whether the answer to the text found no place (the picker says so).
    public var foundNothing: Bool {
        status == .idle && suggestions.isEmpty && !text.trimmingCharacters(in: .whitespaces).isEmpty
    }

    /// Receives ``StartupEvent/placeSuggestions(count:)`` and ``StartupEvent/placeSuggestionsFailed``.
    @ObservationIgnored public var onEvent: (@MainActor (StartupEvent) -> Void)?

    /// How many suggestions are asked for (the API's most).
    public static let suggestionLimit = 10
    public static let defaultDebounce = Duration.milliseconds(300)
    /// The longest query the server takes, in Unicode scalars.
    static let longestQuery = 100

    @ObservationIgnored private let search: any PlaceSearching
    /// Starts the debounce: its deadline is fixed when a keystroke comes, not when the task that waits
    /// for it first runs (which may be after the clock moved on).
    @ObservationIgnored private let startDebounce: @MainActor () -> @Sendable () async throws -> Void
    /// Grows with every text: an answer is shown only while its text is the latest.
    @ObservationIgnored private var generation = 0
    /// The latest search's task, cancelled by the next keystroke.
    @ObservationIgnored private var task: Task<Void, Never>?
    /// Every search not yet ended (a cancelled one may still be on its way), by generation.
    @ObservationIgnored private var running: [Int: Task<Void, Never>] = [:]

    public init(search: any PlaceSearching, clock: any Clock<Duration>, debounce: Duration = defaultDebounce) {
        self.search = search
        self.startDebounce = { Self.timer(clock, debounce) }
    }

    private static func timer<C: Clock<Duration>>(_ clock: C, _ duration: Duration) -> @Sendable () async throws -> Void {
        let deadline = clock.now.advanced(by: duration)
        return { try await clock.sleep(until: deadline, tolerance: nil) }
    }

    /// The person typed: `text` is the whole field now.
    public func type(_ text: String) {
        // SwiftUI may set the field to what it holds: that is no keystroke.
        guard text != self.text else { return }
        self.text = text
        generation += 1
        task?.cancel()
        task = nil
        // As the server takes a query (docs/api.md, "Places"): no control character, at most 100
        // Unicode scalars. A pasted newline or a long paste is searched as far as it can be, never
        // sent to be refused and then shown as a network failure.
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: text.unicodeScalars.filter { $0.properties.generalCategory != .control }.prefix(Self.longestQuery))
        let query = String(scalars).trimmingCharacters(in: .whitespaces)
        guard !query.isEmpty else {
            suggestions = []
            status = .idle
            return
        }
        status = .searching
        let generation = self.generation
        let search = self.search
        let debounced = startDebounce()
        let task = Task { [weak self] in
            defer { self?.running[generation] = nil }
            do {
                try await debounced()
            } catch {
                return  // a newer keystroke cancelled this one
            }
            let result: Result<[Place], any Error>
            do {
                result = .success(try await search.searchPlaces(query, limit: Self.suggestionLimit))
            } catch {
                result = .failure(error)
            }
            guard let self, self.generation == generation else { return }  // the last answer wins
            switch result {
            case .success(let places):
                suggestions = places
                status = .idle
                onEvent?(.placeSuggestions(count: places.count))
            case .failure:
                suggestions = []
                status = .failed
                onEvent?(.placeSuggestionsFailed)
            }
        }
        self.task = task
        running[generation] = task
    }

    /// Empties the field (the picker opens or closes).
    public func reset() {
        type("")
    }

    /// Returns when every search started has ended (shown, or dropped as an older text's).
    public func waitUntilIdle() async {
        while let task = running.values.first {
            await task.value
        }
    }
}
