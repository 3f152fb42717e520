import AsyncSupport
import Testing

@Suite(.timeLimit(.minutes(1))) struct SubscribersTests {
    @Test func givenTwoSubscribers_whenYielding_thenEachGetsItsInitialThenEveryElementInOrder() async {
        var subscribers = Subscribers<Int>()
        let first = subscribers.subscribe(initial: 0) { _ in }
        let second = subscribers.subscribe { _ in }
        subscribers.yield(1)
        subscribers.yield(2)
        subscribers.finishAll()
        #expect(await Array(first) == [0, 1, 2])
        #expect(await Array(second) == [1, 2])
    }

    @Test func givenSubscriberThatGoesAway_whenItsTerminationIsHandled_thenItIsForgottenAndOthersStillHear() async {
        var subscribers = Subscribers<Int>()
        let ended = AsyncStream<Int>.makeStream()
        var leaving: AsyncStream<Int>? = subscribers.subscribe { id in ended.continuation.yield(id) }
        let staying = subscribers.subscribe { _ in }
        #expect(leaving != nil)
        leaving = nil  // dropping the only reference terminates the stream
        var ids = ended.stream.makeAsyncIterator()
        let id = await ids.next()
        #expect(id == 1)
        subscribers.unsubscribe(id ?? 0)
        #expect(subscribers.count == 1)
        subscribers.yield(7)
        subscribers.finishAll()
        #expect(await Array(staying) == [7])
    }
}

private extension Array {
    init<S: AsyncSequence>(_ sequence: S) async where S.Element == Element, S.Failure == Never {
        var elements: [Element] = []
        for await element in sequence { elements.append(element) }
        self = elements
    }
}
