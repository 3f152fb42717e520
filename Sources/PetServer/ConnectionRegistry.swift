import Logging
import NIOConcurrencyHelpers
import NIOCore

/// Every client connection a server holds, by what it is doing, so that a connection beyond
/// ``ConnectionLimits/maximumConnections`` can make room: it closes a connection waiting for its
/// next request, or else one whose request is still arriving, and is closed itself only when every
/// connection is being answered. Which one is chosen at random, so a client holding thousands of
/// idle sockets loses its own, mostly.
///
/// Connections live on several event loops; the registry is shared behind a lock, and each call does
/// constant work under it.
final class ConnectionRegistry: Sendable {
    enum Phase: Sendable { case waiting, receiving, answering }

    let maximum: Int
    private let logger: Logger
    private let reportInterval: Duration
    private let state = NIOLockedValueBox(State())

    init(maximum: Int, logger: Logger, reportInterval: Duration = .seconds(10)) {
        self.maximum = maximum
        self.logger = logger
        self.reportInterval = reportInterval
    }

    /// Asks a connection chosen to make room to close, on its own event loop: there it closes unless
    /// it has begun answering meanwhile (its news may not have reached the registry), and then it is
    /// spared (``spare(_:phase:)``) and the server holds one connection more than the limit until
    /// one closes.
    struct MakeRoom: Sendable {}

    /// A new connection: whether the server keeps it. Asks the connection chosen to make room to close.
    func admit(_ channel: any Channel) -> Bool {
        let (admitted, victim, report, opensWindow) = state.withLockedValue {
            state -> (Bool, (any Channel)?, Logger.Metadata?, Bool) in
            if state.open < maximum {
                state.open += 1
                state.waiting.insert(channel)
                return (true, nil, nil, false)
            }
            let victim = state.waiting.removeRandom() ?? state.receiving.removeRandom()
            if let victim {
                state.closing.insert(ObjectIdentifier(victim))
                state.open += 1
                state.waiting.insert(channel)
                state.closedToMakeRoom += 1
            } else {
                state.refused += 1
            }
            // The first event of a burst is reported at once; the rest when the window closes.
            guard !state.reporting else { return (victim != nil, victim, nil, false) }
            state.reporting = true
            return (victim != nil, victim, state.takeReport(), true)
        }
        victim?.pipeline.fireUserInboundEventTriggered(MakeRoom())
        if let report { warn(report) }
        if opensWindow { scheduleReport(on: channel.eventLoop) }
        return admitted
    }

    /// A connection asked to make room had begun answering: it stays, counted by its phase again.
    func spare(_ channel: any Channel, phase: Phase) {
        let id = ObjectIdentifier(channel)
        state.withLockedValue { state in
            guard state.closing.remove(id) != nil else { return }
            state.spared += 1
        }
        update(channel, to: phase)
    }

    /// At the end of each reporting window: the counts of the window, if any, and another window;
    /// none, and the next event is reported at once. So a burst is reported at its start and every
    /// `reportInterval` until it ends, its tail included.
    private func scheduleReport(on loop: any EventLoop) {
        loop.scheduleTask(in: TimeAmount(reportInterval)) { [self] in
            let report = state.withLockedValue { state -> Logger.Metadata? in
                guard state.closedToMakeRoom + state.refused + state.spared > 0 else {
                    state.reporting = false
                    return nil
                }
                return state.takeReport()
            }
            if let report {
                warn(report)
                scheduleReport(on: loop)
            }
        }
    }

    private func warn(_ report: Logger.Metadata) {
        logger.warning("connection limit reached", metadata: report.merging(["maximum": "\(maximum)"]) { $1 })
    }

    /// A kept connection's phase changed (``ConnectionTimeline``).
    func update(_ channel: any Channel, to phase: Phase) {
        let id = ObjectIdentifier(channel)
        state.withLockedValue { state in
            guard !state.closing.contains(id) else { return }
            state.waiting.remove(id)
            state.receiving.remove(id)
            switch phase {
            case .waiting: state.waiting.insert(channel)
            case .receiving: state.receiving.insert(channel)
            case .answering: break
            }
        }
    }

    /// A kept connection closed.
    func closed(_ channel: any Channel) {
        let id = ObjectIdentifier(channel)
        state.withLockedValue { state in
            state.waiting.remove(id)
            state.receiving.remove(id)
            state.closing.remove(id)
            state.open -= 1
        }
    }

    /// How many connections the server holds, and how many of them wait or are receiving.
    var counts: (open: Int, waiting: Int, receiving: Int) {
        state.withLockedValue { ($0.open, $0.waiting.count, $0.receiving.count) }
    }

    private struct State {
        var open = 0
        var waiting = Pool()
        var receiving = Pool()
        /// Chosen to make room, not yet closed: never chosen twice.
        var closing: Set<ObjectIdentifier> = []
        var closedToMakeRoom = 0
        var refused = 0
        var spared = 0
        /// A reporting window is open: events are counted, and reported when it closes.
        var reporting = false

        /// The counts since the last report, and the connections held now.
        mutating func takeReport() -> Logger.Metadata {
            defer { closedToMakeRoom = 0; refused = 0; spared = 0 }
            return [
                "open": "\(open)", "waiting": "\(waiting.count)", "receiving": "\(receiving.count)",
                "closedToMakeRoom": "\(closedToMakeRoom)", "refused": "\(refused)", "spared": "\(spared)",
            ]
        }
    }

    /// Channels with constant-time insert, remove and random removal (swap with the last).
    private struct Pool {
        private var channels: [any Channel] = []
        private var positions: [ObjectIdentifier: Int] = [:]

        var count: Int { channels.count }

        mutating func insert(_ channel: any Channel) {
            let id = ObjectIdentifier(channel)
            guard positions[id] == nil else { return }
            positions[id] = channels.count
            channels.append(channel)
        }

        mutating func remove(_ id: ObjectIdentifier) {
            guard let position = positions.removeValue(forKey: id) else { return }
            let last = channels.removeLast()
            if position < channels.count {
                channels[position] = last
                positions[ObjectIdentifier(last)] = position
            }
        }

        mutating func removeRandom() -> (any Channel)? {
            guard let channel = channels.randomElement() else { return nil }
            remove(ObjectIdentifier(channel))
            return channel
        }
    }
}
