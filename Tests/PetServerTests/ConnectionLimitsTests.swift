import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOEmbedded
import NIOHTTP1
@testable import PetServer
import Testing

/// Idle and request timeouts, HTTP/1.0, the parser's refusals as JSON, and the connection limit
/// (docs/api.md, "Connections"), on the server's own channel over an `EmbeddedChannel`, whose clock
/// moves only when a test advances it.
@Suite struct ConnectionLimitsTests {
    private let limits = ConnectionLimits(idleTimeout: .seconds(60), requestTimeout: .seconds(20), maximumConnections: 10)

    /// A connection set up as the server sets up each one it accepts.
    private func connect(registry: ConnectionRegistry? = nil) throws -> (EmbeddedChannel, Answerer) {
        let channel = EmbeddedChannel()
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 80)).wait()
        let bounded = BoundedHTTP1Channel(
            responder: { _, _, _ in }, limits: limits,
            registry: registry ?? ConnectionRegistry(maximum: limits.maximumConnections, logger: Logger(label: "test"))
        )
        _ = try bounded.setup(channel: channel, logger: Logger(label: "test")).wait()
        let answerer = Answerer()
        if let guardHandler = try? channel.pipeline.syncOperations.handler(type: RequestGuardHandler.self) {
            try channel.pipeline.syncOperations.addHandler(answerer, position: .after(guardHandler))
        }
        return (channel, answerer)
    }

    /// Stands where Hummingbird's answers come from, to write one.
    final class Answerer: ChannelOutboundHandler, RemovableChannelHandler {
        typealias OutboundIn = HTTPServerResponsePart
        private var context: ChannelHandlerContext?
        func handlerAdded(context: ChannelHandlerContext) { self.context = context }
        func answer() {
            guard let context else { return }
            context.write(NIOAny(HTTPServerResponsePart.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: ["Content-Length": "2"]))), promise: nil)
            context.write(NIOAny(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(string: "{}")))), promise: nil)
            context.writeAndFlush(NIOAny(HTTPServerResponsePart.end(nil)), promise: nil)
        }
    }

    /// Everything the server wrote, as text.
    private func written(_ channel: EmbeddedChannel) throws -> String {
        var text = ""
        while let part = try channel.readOutbound(as: IOData.self) {
            if case .byteBuffer(let buffer) = part { text += String(buffer: buffer) }
        }
        return text
    }

    private func send(_ channel: EmbeddedChannel, _ text: String) throws {
        try channel.writeInbound(ByteBuffer(string: text))
    }

    @Test func givenAnIdleConnection_whenItsIdleTimeoutPasses_thenTheServerClosesIt() throws {
        let (channel, _) = try connect()
        channel.embeddedEventLoop.advanceTime(by: .seconds(59))
        #expect(channel.isActive)
        channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        #expect(!channel.isActive)
    }

    @Test func givenAConnectionSetUpBeforeItIsActive_whenItsIdleTimeoutPasses_thenTheServerClosesIt() throws {
        // As a server does: an accepted connection is set up first, and becomes active after.
        let channel = EmbeddedChannel()
        let registry = ConnectionRegistry(maximum: 10, logger: Logger(label: "test"))
        let bounded = BoundedHTTP1Channel(responder: { _, _, _ in }, limits: limits, registry: registry)
        let value = try bounded.setup(channel: channel, logger: Logger(label: "test")).wait()
        try withExtendedLifetime(value) {
            try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 80)).wait()
            channel.embeddedEventLoop.advanceTime(by: .seconds(59))
            #expect(channel.isActive)
            channel.embeddedEventLoop.advanceTime(by: .seconds(1))
            #expect(!channel.isActive)
            channel.embeddedEventLoop.run()
            #expect(registry.counts.open == 0)
        }
    }

    @Test func givenAHeadSentAByteAtATime_whenTheRequestTimeoutPasses_thenTheServerClosesIt() throws {
        let (channel, _) = try connect()
        for byte in "GET /health HTTP/1.1\r\nX-Slow: aaaaaaaaaaaaaaaaa" {
            guard channel.isActive else { break }
            try send(channel, String(byte))
            channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        }
        // 20 s from the first byte, however often another came.
        #expect(!channel.isActive)
        let answer = try written(channel)
        #expect(answer == "", "\(answer.prefix(200))")
    }

    @Test func givenARequestBeingAnswered_whenAnswersTakeLong_thenNoTimeoutClosesItAndIdleCountsFromTheAnswer() throws {
        let (channel, answerer) = try connect()
        try send(channel, "GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
        channel.embeddedEventLoop.advanceTime(by: .seconds(600))
        #expect(channel.isActive)
        answerer.answer()
        #expect(try written(channel).hasPrefix("HTTP/1.1 200 OK"))
        channel.embeddedEventLoop.advanceTime(by: .seconds(59))
        #expect(channel.isActive)
        channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        #expect(!channel.isActive)
    }

    @Test func givenAnHTTP10Request_whenAnswered_thenTheAnswerSaysCloseAndTheServerCloses() throws {
        let (channel, answerer) = try connect()
        try send(channel, "GET /health HTTP/1.0\r\n\r\n")
        answerer.answer()
        let answer = try written(channel)
        #expect(answer.hasPrefix("HTTP/1.1 200 OK"))
        #expect(answer.lowercased().contains("connection: close\r\n"))
        #expect(!channel.isActive)
    }

    @Test func givenAnHTTP10RequestAskingKeepAlive_whenAnswered_thenTheAnswerSaysKeepAliveAndTheConnectionStaysOpen() throws {
        let (channel, answerer) = try connect()
        try send(channel, "GET /health HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        answerer.answer()
        #expect(try written(channel).lowercased().contains("connection: keep-alive\r\n"))
        #expect(channel.isActive)
    }

    @Test func givenARequestAnsweredBeforeItsBodyArrived_whenTheBodyEnds_thenTheIdleTimeoutStillCloses() throws {
        let (channel, answerer) = try connect()
        try send(channel, "GET /health HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\n")
        answerer.answer()
        _ = try written(channel)
        try send(channel, "abcde")
        channel.embeddedEventLoop.advanceTime(by: .seconds(59))
        #expect(channel.isActive)
        channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        #expect(!channel.isActive)
    }

    @Test func givenAnAnswerTheClientStopsReading_whenTheRequestTimeoutPasses_thenTheServerCloses() throws {
        let (channel, _) = try connect()
        try send(channel, "GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
        channel.isWritable = false
        channel.pipeline.fireChannelWritabilityChanged()
        channel.embeddedEventLoop.advanceTime(by: .seconds(19))
        #expect(channel.isActive)
        channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        #expect(!channel.isActive)
    }

    @Test func givenABadRequestPipelinedBehindTwoGoodOnes_whenTheyAreAnswered_thenTheJSONRefusalFollowsAndOnlyItSaysClose() throws {
        let (channel, answerer) = try connect()
        let good = "GET /health HTTP/1.1\r\nHost: x\r\n\r\n"
        try? send(channel, good + good + "FOO /health HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try written(channel) == "")
        answerer.answer()
        answerer.answer()
        let answer = try written(channel)
        let answers = answer.components(separatedBy: "HTTP/1.1 ").dropFirst()
        #expect(answers.map { String($0.prefix(3)) } == ["200", "200", "501"], "\(answer)")
        #expect(answers.prefix(2).allSatisfy { !$0.lowercased().contains("connection: close") }, "\(answer)")
        #expect(answer.hasSuffix(#""code":"method_not_implemented","message":"the server implements GET and HEAD only (methods are case-sensitive)"}}"#), "\(answer)")
        channel.embeddedEventLoop.advanceTime(by: RequestGuardHandler.lingering)
        #expect(!channel.isActive)
    }

    @Test func givenCONNECTPipelinedBehindARequest_whenItsAnswerIsWritten_thenThe405FollowsAndTheConnectionCloses() throws {
        let (channel, answerer) = try connect()
        try send(channel, "GET /health HTTP/1.1\r\nHost: x\r\n\r\nCONNECT example.com:443 HTTP/1.1\r\nHost: example.com\r\n\r\n")
        #expect(channel.isActive)
        answerer.answer()
        let answer = try written(channel)
        #expect(answer.hasPrefix("HTTP/1.1 200 OK"), "\(answer)")
        #expect(answer.contains("HTTP/1.1 405 Method Not Allowed\r\n"), "\(answer)")
        #expect(answer.hasSuffix(#""code":"method_not_allowed","message":"every path answers GET and HEAD only, not CONNECT"}}"#), "\(answer)")
        channel.embeddedEventLoop.advanceTime(by: RequestGuardHandler.lingering)
        #expect(!channel.isActive)
    }

    @Test func givenARequestAskingToUpgrade_whenAnswered_thenTheAnswerSaysCloseAndTheConnectionEnds() throws {
        let (channel, answerer) = try connect()
        try send(channel, "GET /health HTTP/1.1\r\nHost: x\r\nUpgrade: h2c\r\nConnection: Upgrade, HTTP2-Settings\r\n\r\nGET /health HTTP/1.1\r\n")
        answerer.answer()
        #expect(try written(channel).lowercased().contains("connection: close\r\n"))
        channel.embeddedEventLoop.advanceTime(by: RequestGuardHandler.lingering)
        #expect(!channel.isActive)
    }

    @Test func givenABadChunkInARequestsBody_whenRead_thenNoSecondAnswerAndTheConnectionEndsAfterTheFirst() throws {
        let (channel, answerer) = try connect()
        try? send(channel, "GET /health HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n")
        #expect(try written(channel) == "")
        answerer.answer()
        let answer = try written(channel)
        #expect(answer.components(separatedBy: "HTTP/1.1 ").count == 2, "\(answer)")
        #expect(answer.lowercased().contains("connection: close\r\n"), "\(answer)")
        channel.embeddedEventLoop.advanceTime(by: RequestGuardHandler.lingering)
        #expect(!channel.isActive)
    }

    @Test func givenAnAnswerHandedOverButNeverWritten_whenTheRequestTimeoutPasses_thenTheServerCloses() throws {
        let (channel, answerer) = try connect()
        try channel.pipeline.syncOperations.addHandler(HoldingWrites(), position: .first)
        try send(channel, "GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
        answerer.answer()
        channel.embeddedEventLoop.advanceTime(by: .seconds(19))
        #expect(channel.isActive)
        channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        #expect(!channel.isActive)
    }

    /// A client that reads nothing: writes are kept, never done.
    final class HoldingWrites: ChannelOutboundHandler, RemovableChannelHandler {
        typealias OutboundIn = NIOAny
        private var held: [EventLoopPromise<Void>?] = []
        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) { held.append(promise) }
        func flush(context: ChannelHandlerContext) {}
        func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
            for promise in held { promise?.fail(ChannelError.ioOnClosedChannel) }
            held = []
            context.close(mode: mode, promise: promise)
        }
    }

    static let refusedRequests: [(String, String, String)] = [
        ("GET /api/pets?q=" + String(repeating: "a", count: 100_000) + " HTTP/1.1\r\n", "414 URI Too Long", "uri_too_long"),
        ("GET /health HTTP/1.1\r\nX-Big: " + String(repeating: "a", count: 1_000_000) + "\r\n\r\n", "431 Request Header Fields Too Large", "headers_too_large"),
        ("GET /health HTTP/1.1\r\n" + (0..<10_000).map { "X-\($0): 1\r\n" }.joined() + "\r\n", "431 Request Header Fields Too Large", "headers_too_large"),
        ("FOO /health HTTP/1.1\r\nHost: x\r\n\r\n", "501 Not Implemented", "method_not_implemented"),
        ("get /health HTTP/1.1\r\nHost: x\r\n\r\n", "501 Not Implemented", "method_not_implemented"),
        ("CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n", "405 Method Not Allowed", "method_not_allowed"),
        ("GET /health HTTP/1.1\r\nHost x\r\n\r\n", "400 Bad Request", "bad_request"),
    ]

    @Test(arguments: refusedRequests)
    func givenARequestTheServerRefuses_whenRead_thenTheAnswerIsTheAPIsJSONErrorAndTheConnectionCloses(
        request: String, status: String, code: String
    ) throws {
        let (channel, _) = try connect()
        try? send(channel, request)
        let answer = try written(channel)
        #expect(answer.hasPrefix("HTTP/1.1 \(status)\r\n"), "\(answer.prefix(80))")
        let parts = answer.components(separatedBy: "\r\n\r\n")
        #expect(parts.count == 2)
        let head = parts[0].lowercased(), body = parts.last ?? ""
        #expect(head.contains("content-type: application/json; charset=utf-8"))
        #expect(head.contains("content-length: \(body.utf8.count)"))
        #expect(head.contains("connection: close"))
        let decoded = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: [String: String]]
        #expect(decoded?["error"]?["code"] == code)
        if code == "method_not_allowed" { #expect(head.contains("allow: get, head")) }
        // It stops writing at once and closes after draining what the client still sends.
        channel.embeddedEventLoop.advanceTime(by: RequestGuardHandler.lingering)
        #expect(!channel.isActive)
    }

    @Test func givenTheLimitReached_whenAConnectionArrives_thenAnIdleOneIsClosedToMakeRoom() throws {
        let registry = ConnectionRegistry(maximum: 2, logger: Logger(label: "test"))
        let (busy, _) = try connect(registry: registry)
        try send(busy, "GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
        let (idle, _) = try connect(registry: registry)
        let (third, _) = try connect(registry: registry)
        idle.embeddedEventLoop.run()
        #expect(busy.isActive && third.isActive)
        #expect(!idle.isActive)
        #expect(registry.counts.open == 2)
    }

    @Test func givenNoIdleConnection_whenOneArrivesAtTheLimit_thenOneStillReceivingIsClosed() throws {
        let registry = ConnectionRegistry(maximum: 2, logger: Logger(label: "test"))
        let (busy, _) = try connect(registry: registry)
        try send(busy, "GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
        let (slow, _) = try connect(registry: registry)
        try send(slow, "GET /hea")
        let (third, _) = try connect(registry: registry)
        #expect(busy.isActive && third.isActive)
        #expect(!slow.isActive)
    }

    @Test func givenEveryConnectionBeingAnswered_whenOneMoreArrives_thenItIsClosedAndTheOthersKept() throws {
        let registry = ConnectionRegistry(maximum: 2, logger: Logger(label: "test"))
        var kept: [EmbeddedChannel] = []
        for _ in 0..<2 {
            let (channel, _) = try connect(registry: registry)
            try send(channel, "GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
            kept.append(channel)
        }
        let (refused, _) = try connect(registry: registry)
        #expect(!refused.isActive)
        #expect(kept.allSatisfy { $0.isActive })
        #expect(registry.counts.open == 2)
    }

    @Test func givenManyConnectionsBeyondTheLimit_whenAdmitted_thenOneWarningSaysSo() throws {
        let log = LogLines()
        let registry = ConnectionRegistry(maximum: 1, logger: Logger(label: "test") { _ in log })
        var channels: [EmbeddedChannel] = []
        for _ in 0..<50 { channels.append(try connect(registry: registry).0) }
        for channel in channels { channel.embeddedEventLoop.run() }
        #expect(channels.filter { $0.isActive }.count == 1)
        #expect(log.lines == ["warning connection limit reached closedToMakeRoom=1"])
        #expect(registry.counts.open == 1)
        // The rest of the burst when its window closes; then nothing, and the window stays closed.
        for _ in 0..<2 {
            for channel in channels { channel.embeddedEventLoop.advanceTime(by: .seconds(10)) }
        }
        #expect(log.lines == ["warning connection limit reached closedToMakeRoom=1", "warning connection limit reached closedToMakeRoom=48"])
        _ = try connect(registry: registry)
        #expect(log.lines.count == 3)
    }

    @Test func givenAConnectionChosenToMakeRoom_whenItHasBegunAnswering_thenItIsSparedAndCountedAgain() throws {
        let registry = ConnectionRegistry(maximum: 1, logger: Logger(label: "test"))
        let (answering, _) = try connect(registry: registry)
        try send(answering, "GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
        // As when its news has not reached the registry from its event loop yet.
        registry.update(answering, to: .waiting)
        let (newcomer, _) = try connect(registry: registry)
        #expect(answering.isActive && newcomer.isActive)
        #expect(registry.counts.open == 2)
        // Spared, it is counted by its phase again: answering, so never chosen while it answers.
        #expect(registry.counts.waiting == 1)
    }

    @Test(arguments: [(1024, 768), (20_000, 18_976), (1_048_576, 1_047_552)])
    func givenAnOpenFileLimit_whenTheDefaultLimitIsTaken_thenDescriptorsAreLeftForTheServer(files: Int, connections: Int) {
        #expect(ConnectionLimits.defaultMaximumConnections(openFileLimit: files) == connections)
    }
}

/// Log lines, level and message, as a handler receives them.
private final class LogLines: LogHandler, Sendable {
    private let recorded = NIOLockedValueBox<[String]>([])
    var lines: [String] { recorded.withLockedValue { $0 } }
    var metadata: Logger.Metadata {
        get { [:] }
        set {}
    }
    var logLevel: Logger.Level {
        get { .trace }
        set {}
    }
    subscript(metadataKey _: String) -> Logger.Metadata.Value? {
        get { nil }
        set {}
    }
    func log(event: LogEvent) {
        let closed = event.metadata?["closedToMakeRoom"].map { " closedToMakeRoom=\($0)" } ?? ""
        recorded.withLockedValue { $0.append("\(event.level) \(event.message)\(closed)") }
    }
}
