import AsyncSupport
import DeviceSimulator
import Foundation
import PetSpotDomain
import ScenarioRunner

/// One WebDriver session: the phone, its time, and the elements the client holds references to.
@MainActor
final class Session {
    let id: String
    /// The bundle identifier of the app the session drives (`appium:bundleId`).
    let bundleID: String
    let run: ScenarioRun
    let time: SessionTime
    var pump: Task<Void, Never>?
    /// How long a search for an element goes on before it answers "no such element".
    private(set) var implicitWait: Duration = .zero
    /// Element references handed out, and the element each names.
    private var references: [String: ElementKey] = [:]
    private var referenceOfKey: [ElementKey: String] = [:]

    init(id: String, bundleID: String, run: ScenarioRun, time: SessionTime) {
        self.id = id
        self.bundleID = bundleID
        self.run = run
        self.time = time
    }

    /// Brings the phone's time up to the clock's.
    func syncTime() async {
        await run.catchUp(to: time.elapsed())
    }

    func act(_ action: Scenario.Action) async throws(WebDriverError) {
        do {
            try await run.act(action)
        } catch {
            throw WebDriverError("element not interactable", error.description)
        }
    }

    /// Launches the app and returns once its launch has settled, as WebDriverAgent waits for a launched
    /// app to be idle: the permission read, the popup or iOS's alert up if either is to show, the first
    /// listing asked for (docs/e2e.md says what a client may then rely on).
    func launch() async throws(WebDriverError) {
        try await act(.launch)
        // On the wall clock, whatever the phone's clock: this waits for the process's own work, which
        // takes real time while the phone's stands still (nothing that falls due can come between).
        let deadline = Deadline(after: Self.launchSettleLimit, on: ContinuousClock())
        guard await run.waitUntilLaunchSettled(orUntil: deadline) else {
            let pending = run.launchPending ?? "nothing"
            throw WebDriverError("unknown error", "the app's launch did not settle within \(Self.launchSettleLimit.components.seconds) s: still waiting for \(pending)")
        }
    }

    /// How long a launch may take to settle before the command fails.
    static let launchSettleLimit: Duration = .seconds(30)

    func setTimeouts(_ request: JSONValue) throws(WebDriverError) -> JSONValue {
        for key in ["implicit", "pageLoad", "script"] {
            guard let value = request[key], value != .null else { continue }
            guard let ms = value.number, ms >= 0, ms <= 86_400_000, ms.rounded() == ms else {
                throw .invalidArgument("'\(key)' must be a whole number of milliseconds from 0 to 86400000")
            }
            // Commands take turns, so one search may hold the next command back: never beyond this.
            if key == "implicit" { implicitWait = .milliseconds(min(Int(ms), Self.longestImplicitWaitMs)) }
        }
        return .null
    }

    /// The longest implicit wait honoured (a longer one is cut to it).
    static let longestImplicitWaitMs = 60_000

    // MARK: Elements

    /// Finds elements by `accessibility id` (or `id`, `name`: the element's name) or `class name`
    /// (its XCUIElementType), waiting up to the implicit wait for at least one.
    func find(_ request: JSONValue, under parentID: String?, many: Bool) async throws(WebDriverError) -> JSONValue {
        guard let using = request["using"]?.string else { throw .invalidArgument("'using' must be a locator strategy") }
        guard let value = request["value"]?.string else { throw .invalidArgument("'value' must be a string") }
        let matches: (AccessibilityElement) -> Bool
        switch using {
        case "accessibility id", "id", "name":
            // Exactly, as XCUITest compares (NSString's literal equality), not by Swift's canonical
            // equivalence: the rows of pets `é-9` and `e` + U+0301 `-9` are two elements.
            let wanted = Array(value.utf8)
            matches = { $0.name.utf8.elementsEqual(wanted) }
        case "class name": matches = { $0.kind.rawValue == value }
        default:
            throw WebDriverError(
                "invalid selector",
                "Locator Strategy '\(using)' is not supported by the simulated iPhone; use 'accessibility id' or 'class name'"
            )
        }
        // The deadline is fixed as the search begins.
        let deadline = time.elapsed() + implicitWait
        while true {
            let all = keyed(run.screen)
            var scope = all.indices
            if let parentID {
                // The parent's descendants follow it in depth-first order, as many as its subtree holds.
                let parent = try element(parentID, in: run.screen)
                guard let key = references[parentID], let index = all.firstIndex(where: { $0.key == key }) else {
                    throw .staleElement(parentID)
                }
                scope = (index + 1)..<(index + parent.allElements.count)
            }
            let found = all[scope].filter { matches($0.element) }
            if !found.isEmpty || time.elapsed() >= deadline {
                if many { return .array(found.map { reference(to: $0.key) }) }
                guard let first = found.first else { throw .noSuchElement(using, value) }
                return reference(to: first.key)
            }
            do {
                try await time.sleep(.milliseconds(50))
            } catch {
                throw WebDriverError("timeout", "the search for '\(value)' was cancelled")
            }
            await syncTime()
        }
    }

    func element(_ id: String) throws(WebDriverError) -> AccessibilityElement {
        try element(id, in: run.screen)
    }

    private func element(_ id: String, in root: AccessibilityElement) throws(WebDriverError) -> AccessibilityElement {
        guard let key = references[id] else {
            throw WebDriverError("no such element", "no element '\(id)' was ever found in this session")
        }
        guard let element = keyed(root).first(where: { $0.key == key })?.element else { throw .staleElement(id) }
        return element
    }

    func click(_ id: String) async throws(WebDriverError) {
        let element = try element(id)
        guard element.isEnabled else {
            throw WebDriverError("element not interactable", "'\(element.name)' is disabled")
        }
        do {
            try await run.tap(element)
        } catch {
            throw WebDriverError("element not interactable", "tapping '\(element.name)': \(error.description)")
        }
    }

    /// W3C Element Send Keys: `text` is typed into a search field, after what it holds.
    func sendKeys(_ id: String, _ request: JSONValue) async throws(WebDriverError) {
        guard let text = request["text"]?.string else { throw .invalidArgument("'text' must be a string") }
        let element = try element(id)
        guard element.acceptsText else {
            throw WebDriverError("element not interactable", "'\(element.name)' does not take text")
        }
        do {
            try await run.type(text, into: element)
        } catch {
            throw WebDriverError("element not interactable", "typing into '\(element.name)': \(error.description)")
        }
    }

    /// W3C Element Clear: a search field is emptied.
    func clear(_ id: String) async throws(WebDriverError) {
        let element = try element(id)
        guard element.acceptsText else {
            throw WebDriverError("invalid element state", "'\(element.name)' is not a field that can be cleared")
        }
        var empty = element
        empty.value = ""
        do {
            try await run.type("", into: empty)
        } catch {
            throw WebDriverError("element not interactable", "clearing '\(element.name)': \(error.description)")
        }
    }

    func attribute(_ name: String, of element: AccessibilityElement) throws(WebDriverError) -> JSONValue {
        switch name {
        case "name": return .string(element.name)
        case "label": return .string(element.label)
        case "value": return element.value.map(JSONValue.string) ?? .null
        case "type": return .string(element.kind.rawValue)
        case "enabled": return .string(element.isEnabled ? "true" : "false")
        case "visible", "accessible": return .string("true")
        default: return .null
        }
    }

    private func reference(to key: ElementKey) -> JSONValue {
        let id: String
        if let known = referenceOfKey[key] {
            id = known
        } else {
            id = UUID().uuidString.lowercased()
            references[id] = key
            referenceOfKey[key] = id
        }
        return .object(["element-6066-11e4-a52e-4f735466cecf": .string(id), "ELEMENT": .string(id)])
    }

    /// Every element with what identifies it across screens: its identifier, or else its type,
    /// label and rank among its equals.
    private func keyed(_ root: AccessibilityElement) -> [(key: ElementKey, element: AccessibilityElement)] {
        var seen: [ElementKey: Int] = [:]
        return root.allElements.map { element in
            var key = ElementKey(kind: element.kind, identifier: element.identifier, label: element.identifier == nil ? element.label : "")
            key.rank = seen[key, default: 0]
            seen[key, default: 0] += 1
            return (key, element)
        }
    }

    // MARK: Alerts

    func answerAlert(accept: Bool, label: String?) async throws(WebDriverError) {
        guard let alert = run.screen.children.first(where: { $0.kind == .alert }) else { throw .noSuchAlert }
        let labels = alert.children.filter { $0.kind == .button }.map(\.label)
        let chosen: String
        if let label {
            guard labels.contains(label) else {
                throw .invalidArgument("the alert has no button '\(label)' (it has \(labels.map { "'\($0)'" }.joined(separator: ", ")))")
            }
            chosen = label
        } else {
            // As WebDriverAgent does: accepting taps the last button, dismissing the first — on the
            // location alert that is Don’t Allow and Allow Once, so tests name the button they mean.
            guard let button = accept ? labels.last : labels.first else {
                throw WebDriverError("unknown error", "the alert has no button")
            }
            chosen = button
        }
        do {
            try await run.answerSystemAlert(label: chosen)
        } catch {
            throw WebDriverError("unknown error", error.description)
        }
    }
}

/// What identifies an element from one look at the screen to the next. The texts are kept as bytes:
/// a `String` key would take two rows whose ids differ only in normalization for one element.
struct ElementKey: Hashable {
    var kind: AccessibilityElement.Kind
    var identifier: [UInt8]?
    var label: [UInt8]
    var rank = 0

    init(kind: AccessibilityElement.Kind, identifier: String?, label: String) {
        self.kind = kind
        self.identifier = identifier.map { Array($0.utf8) }
        self.label = Array(label.utf8)
    }
}

extension Session {
    /// Lets `duration` pass on the clock, then brings the phone's time up to it.
    func wait(_ duration: Duration) async {
        try? await time.sleep(duration)
        await syncTime()
    }
}

/// The time a session's phone follows: time elapsed since the session began, and sleeping on it.
struct SessionTime: Sendable {
    let elapsed: @Sendable () -> Duration
    let sleep: @Sendable (Duration) async throws -> Void
    private let restart: @Sendable () -> SessionTime

    init<C: Clock<Duration>>(_ clock: C) {
        let start = clock.now
        elapsed = { start.duration(to: clock.now) }
        sleep = { try await clock.sleep(for: $0) }
        restart = { SessionTime(clock) }
    }

    /// The same clock, counting from now.
    func starting() -> SessionTime { restart() }
}
