/// What one event did to a pure state machine: the effects to perform, in order, and what happened,
/// for the log. Machines name it `Step` (`typealias Step = MachineStep<Effect, Logged>`).
public struct MachineStep<Effect, Logged> {
    public var effects: [Effect]
    public var log: [Logged]

    public init(effects: [Effect] = [], log: [Logged] = []) {
        self.effects = effects
        self.log = log
    }
}

extension MachineStep: Equatable where Effect: Equatable, Logged: Equatable {}
extension MachineStep: Hashable where Effect: Hashable, Logged: Hashable {}
extension MachineStep: Sendable where Effect: Sendable, Logged: Sendable {}
