import DequeModule
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import PetAPI

/// Hummingbird's HTTP/1.1 channel within ``ConnectionLimits``: every connection is admitted by the
/// ``ConnectionRegistry``, closed when idle or when its request arrives too slowly, closed after the
/// answer to an HTTP/1.0 request that did not ask to keep it, and a request the HTTP parser refuses
/// gets the API's JSON error body (docs/api.md) instead of an empty 400.
struct BoundedHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value

    let http1: HTTP1Channel
    let limits: ConnectionLimits
    let registry: ConnectionRegistry

    init(responder: @escaping HTTPChannelHandler.Responder, limits: ConnectionLimits, registry: ConnectionRegistry) {
        self.http1 = HTTP1Channel(responder: responder, configuration: .init(
            httpDecoderConfiguration: .init(
                maxHeaderFieldSize: ConnectionLimits.maximumHeaderFieldBytes,
                maxHeaderListSize: ConnectionLimits.maximumHeaderBytes,
                maxHeaderFieldCount: ConnectionLimits.maximumHeaderFields
            )
        ))
        self.limits = limits
        self.registry = registry
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let admitted = registry.admit(channel)
        let registry = registry
        // Counted from the admission on, whatever happens next, so that `open` never drifts.
        if admitted { channel.closeFuture.whenComplete { _ in registry.closed(channel) } }
        return http1.setup(channel: channel, logger: logger).flatMapThrowing { value in
            guard admitted else {
                // Refused: every connection is being answered. Closed before it is read.
                channel.close(promise: nil)
                return value
            }
            let timeline = ConnectionTimeline(channel: channel, limits: limits, registry: registry, logger: logger)
            let pipeline = channel.pipeline.syncOperations
            try pipeline.addHandler(RequestBytesHandler(timeline: timeline), position: .first)
            let decoder = try pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try pipeline.addHandler(RequestGuardHandler(timeline: timeline), position: .after(decoder))
            timeline.start()
            return value
        }.flatMapErrorThrowing { error in
            // A connection that could not be set up is closed, never left open unwatched.
            channel.close(promise: nil)
            throw error
        }
    }

    func handle(value: Value, logger: Logger) async {
        await http1.handle(value: value, logger: logger)
    }
}

extension HTTPServerBuilder {
    /// HTTP/1.1 within `limits` (``BoundedHTTP1Channel``).
    static func boundedHTTP1(limits: ConnectionLimits, registry: ConnectionRegistry) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in
            BoundedHTTP1Channel(responder: responder, limits: limits, registry: registry)
        }
    }
}

/// What one connection is doing, and the one deadline that phase has: waiting for a request's first
/// byte (``ConnectionLimits/idleTimeout``), receiving a request (``ConnectionLimits/requestTimeout``
/// from its first byte to its end), or answering (no deadline: the store bounds its own operations).
///
/// The first byte is seen before the HTTP parser, by ``RequestBytesHandler``; the ends of requests and
/// answers after it, by ``RequestGuardHandler``. Both run on the connection's event loop.
final class ConnectionTimeline {
    private(set) var phase = ConnectionRegistry.Phase.waiting
    private let channel: any Channel
    private let limits: ConnectionLimits
    private let registry: ConnectionRegistry
    private let logger: Logger
    private var deadline: Scheduled<Void>?
    /// The requests whose heads were parsed and that are not answered yet, oldest first: whether
    /// each keeps the connection open, is HTTP/1.0, and has arrived to its end. An answer may come
    /// before its request's body has (Hummingbird answers when the router returns, then drains it).
    private var pending = Deque<(keepAlive: Bool, isHTTP10: Bool, ended: Bool)>()
    /// The request still arriving was answered already: its end is no longer awaited by an answer.
    private var arrivingWasAnswered = false
    /// A head was parsed and its end not yet.
    private var arriving = false
    /// The bytes of the current request's first line seen so far, and whether its end was seen: a
    /// head the parser finds too large is a long URL (414) or long headers (431).
    private(set) var requestLineBytes = 0
    private(set) var requestLineEnded = false
    /// An answer the client does not read: closed if it stays unread for the request timeout.
    private var stall: Scheduled<Void>?
    /// The connection closes once the answers owed are written (a CONNECT came behind them).
    private var closeWhenAnswered = false
    /// The connection closed: no deadline or phase any more.
    private var stopped = false

    init(channel: any Channel, limits: ConnectionLimits, registry: ConnectionRegistry, logger: Logger) {
        self.channel = channel
        self.limits = limits
        self.registry = registry
        self.logger = logger
    }

    func start() { enter(.waiting) }

    func stop() {
        stopped = true
        deadline?.cancel()
        deadline = nil
        stall?.cancel()
        stall = nil
    }

    /// Writes bytes as they are, below the HTTP encoder (set by ``RequestBytesHandler``), then calls `done`.
    var rawWriter: ((ByteBuffer, @escaping () -> Void) -> Void)?

    func writeBelowHTTP(_ bytes: ByteBuffer, then done: @escaping () -> Void) {
        guard let rawWriter else { return channel.close(promise: nil) }
        rawWriter(bytes, done)
    }

    /// Bytes arrived, not yet parsed.
    func bytesArrived(_ buffer: ByteBuffer) {
        if phase == .waiting {
            requestLineBytes = 0
            requestLineEnded = false
            enter(.receiving)
        }
        guard phase == .receiving, !requestLineEnded else { return }
        if let newline = buffer.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) {
            requestLineBytes += newline - buffer.readerIndex
            requestLineEnded = true
        } else {
            requestLineBytes += buffer.readableBytes
        }
    }

    /// A request's head was parsed.
    func headParsed(keepAlive: Bool, isHTTP10: Bool) {
        pending.append((keepAlive, isHTTP10, false))
        arriving = true
        arrivingWasAnswered = false
        settle()
    }

    /// A request's end was parsed.
    func endParsed() {
        arriving = false
        if arrivingWasAnswered {
            arrivingWasAnswered = false
        } else if !pending.isEmpty {
            pending[pending.count - 1].ended = true
        }
        settle()
    }

    /// The answer now being written: whether the connection stays open after it, and whether its
    /// request is HTTP/1.0 (which keeps a connection only when told `Connection: keep-alive`).
    var answerKeepsAlive: Bool { (pending.first?.keepAlive ?? true) && !closeWhenAnswered }
    var answerIsHTTP10: Bool { pending.first?.isHTTP10 ?? false }

    /// An answer was handed to the pipeline to its end: whether the connection must close once it is
    /// written. The phase changes when it has been written (``settle()``), not before: an answer a
    /// slow client is still reading is no idle connection.
    func answerEnded() -> Bool {
        guard let answered = pending.popFirst() else { return closeWhenAnswered }
        if !answered.ended { arrivingWasAnswered = true }
        return !answered.keepAlive || (closeWhenAnswered && pending.isEmpty)
    }

    /// Whether an answer is owed or was given to the request now arriving, so that an error answer
    /// written below Hummingbird would be a second answer, or cut into one.
    var hasAnswered: Bool { !pending.isEmpty || arrivingWasAnswered }

    /// Whether answers are owed to requests read.
    var owesAnswers: Bool { !pending.isEmpty }

    /// Closes the connection once every answer owed is written.
    func closeAfterAnswers() {
        closeWhenAnswered = true
        if pending.isEmpty { channel.close(promise: nil) }
    }

    /// Enters the phase the requests say: answering while the oldest has arrived whole and is not
    /// answered, receiving while one is arriving, waiting otherwise.
    func settle() {
        let next: ConnectionRegistry.Phase =
            if pending.first?.ended == true { .answering } else if arriving { .receiving } else { .waiting }
        // The same phase keeps its deadline: a request's counts from its first byte, idle from the answer.
        guard next != phase else { return }
        enter(next)
    }

    /// The channel's writability: an answer the client stops reading must be read again within the
    /// request timeout, or the connection closes (otherwise a client that never reads would hold it
    /// answering for ever, where no timeout and no eviction reaches it).
    func writabilityChanged(isWritable: Bool) {
        stall?.cancel()
        stall = nil
        guard !isWritable else { return }
        stall = channel.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(limits.requestTimeout)) { [weak self] in
            guard let self else { return }
            self.logger.debug("closing connection", metadata: ["reason": "answer not read"])
            self.channel.close(promise: nil)
        }
    }

    private func enter(_ next: ConnectionRegistry.Phase) {
        // After a close the registry has forgotten the connection; it must not learn of it again.
        // (Not `channel.isActive`: an accepted connection is set up before it becomes active.)
        guard !stopped else { return }
        phase = next
        deadline?.cancel()
        deadline = nil
        registry.update(channel, to: next)
        switch next {
        case .waiting: arm(after: limits.idleTimeout, reason: "idle")
        case .receiving: arm(after: limits.requestTimeout, reason: "request too slow")
        case .answering: break
        }
    }

    private func arm(after duration: Duration, reason: String) {
        deadline = channel.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(duration)) { [weak self] in
            guard let self else { return }
            self.deadline = nil
            self.logger.debug("closing connection", metadata: ["reason": "\(reason)"])
            self.channel.close(promise: nil)
        }
    }
}

/// First in the pipeline: sees each request's first bytes before the HTTP parser does.
final class RequestBytesHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let timeline: ConnectionTimeline

    init(timeline: ConnectionTimeline) { self.timeline = timeline }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        timeline.bytesArrived(unwrapInboundIn(data))
        context.fireChannelRead(data)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        timeline.rawWriter = { bytes, done in
            context.writeAndFlush(NIOAny(bytes)).assumeIsolated().whenComplete { _ in done() }
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timeline.rawWriter = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        timeline.stop()
        context.fireChannelInactive()
    }
}

/// Right after the HTTP parser: follows requests and answers for the ``ConnectionTimeline``, closes
/// the connection after answering an HTTP/1.0 request that did not ask to keep it (Hummingbird keeps
/// it open), and answers what the parser refuses, and `CONNECT`, with the API's JSON error.
final class RequestGuardHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let timeline: ConnectionTimeline
    /// An error answer was written or is due: everything the client sends after it is dropped.
    private var refused = false
    /// The error answer due once the answers owed before it are written.
    private var refusalAfterAnswers: ByteBuffer?

    init(timeline: ConnectionTimeline) { self.timeline = timeline }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        switch unwrapInboundIn(data) {
        case .head(let head):
            // Every path answers GET and HEAD only; CONNECT's answer has no body in HTTP's framing,
            // so it is refused here, before the router, with the connection closed.
            if head.method == .CONNECT {
                guard !timeline.hasAnswered else {
                    // Answers are owed before it: they are written, then the connection closes.
                    refused = true
                    return timeline.closeAfterAnswers()
                }
                return refuse(
                    context, status: .methodNotAllowed, code: "method_not_allowed",
                    message: "every path answers GET and HEAD only, not CONNECT", allow: "GET, HEAD"
                )
            }
            timeline.headParsed(keepAlive: head.isKeepAlive, isHTTP10: head.version == .http1_0)
        case .body:
            break
        case .end:
            timeline.endParsed()
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head):
            if !timeline.answerKeepsAlive {
                head.headers.replaceOrAdd(name: "connection", value: "close")
            } else if timeline.answerIsHTTP10 {
                // HTTP/1.0 keeps a connection only when the answer says so too.
                head.headers.replaceOrAdd(name: "connection", value: "keep-alive")
            }
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .end:
            let closing = timeline.answerEnded()
            // What follows happens once the end is on the wire: a close before it would drop what was
            // not yet written, and an answer still being read is not yet an idle connection.
            let written = context.eventLoop.makePromise(of: Void.self)
            if let promise { written.futureResult.cascade(to: promise) }
            let timeline = timeline
            written.futureResult.assumeIsolated().whenComplete { [self] _ in
                if !closing {
                    timeline.settle()
                } else if let refusal = refusalAfterAnswers, !timeline.owesAnswers {
                    refusalAfterAnswers = nil
                    send(refusal, context)
                } else {
                    context.close(promise: nil)
                }
            }
            context.write(data, promise: written)
        case .body:
            context.write(data, promise: promise)
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        timeline.writabilityChanged(isWritable: context.channel.isWritable)
        context.fireChannelWritabilityChanged()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A head cut short by a close (a timeout's, or the client's) is no request to answer.
        guard !refused, context.channel.isActive else { return }
        guard let parserError = error as? HTTPParserError else { return context.fireErrorCaught(error) }
        let refusal = Self.refusal(of: parserError, requestLineBytes: timeline.requestLineEnded ? timeline.requestLineBytes : nil)
        guard timeline.hasAnswered else {
            return refuse(context, status: refusal.status, code: refusal.code, message: refusal.message)
        }
        // Answers are owed to requests before the bad one: they are written first, then the refusal
        // (Hummingbird, told of the error, would answer an empty 400 after them). When the bad bytes
        // belong to a request answered already, there is nothing more to say.
        refused = true
        if timeline.owesAnswers {
            refusalAfterAnswers = Self.answer(
                status: refusal.status, code: refusal.code, message: refusal.message, allow: nil, allocator: context.channel.allocator
            )
            timeline.closeAfterAnswers()
        } else {
            context.close(promise: nil)
        }
    }

    /// What a request the parser refused is answered. `requestLineBytes` is nil when the request line
    /// had not ended: a head too large before its first line ends is a URL too long.
    static func refusal(of error: HTTPParserError, requestLineBytes: Int?) -> (status: HTTPResponseStatus, code: String, message: String) {
        switch error {
        case .headerOverflow where (requestLineBytes ?? Int.max) > ConnectionLimits.maximumHeaderFieldBytes:
            (.uriTooLong, "uri_too_long", "the request line is longer than \(ConnectionLimits.maximumHeaderFieldBytes) bytes")
        case .headerOverflow:
            (.requestHeaderFieldsTooLarge, "headers_too_large",
             "the request's headers exceed \(ConnectionLimits.maximumHeaderFields) fields, "
                + "\(ConnectionLimits.maximumHeaderFieldBytes) bytes in one field or \(ConnectionLimits.maximumHeaderBytes) bytes in all")
        case .invalidMethod:
            (.notImplemented, "method_not_implemented", "the server implements GET and HEAD only (methods are case-sensitive)")
        default:
            (.badRequest, "bad_request", "the request is not valid HTTP/1.1 (\(error))")
        }
    }

    /// A whole answer with the API's JSON error body, as bytes, closing the connection.
    private static func answer(
        status: HTTPResponseStatus, code: String, message: String, allow: String?, allocator: ByteBufferAllocator
    ) -> ByteBuffer {
        let body = JSONResponse.errorBytes(code: code, message: message)
        var head = "HTTP/1.1 \(status.code) \(status.reasonPhrase)\r\n"
            + "Content-Type: application/json; charset=utf-8\r\nContent-Length: \(body.readableBytes)\r\n"
            + "Connection: close\r\nServer: PetSpot\r\n"
        if let allow { head += "Allow: \(allow)\r\n" }
        var bytes = allocator.buffer(capacity: head.utf8.count + 2 + body.readableBytes)
        bytes.writeString(head + "\r\n")
        bytes.writeImmutableBuffer(body)
        return bytes
    }

    private func refuse(
        _ context: ChannelHandlerContext, status: HTTPResponseStatus, code: String, message: String, allow: String? = nil
    ) {
        refused = true
        send(Self.answer(status: status, code: code, message: message, allow: allow, allocator: context.channel.allocator), context)
    }

    /// Writes an error answer below the HTTP encoder, which drops the body of every answer to CONNECT,
    /// and which a refused request never reached. A close while the client is still sending (a long
    /// URL, a megabyte of headers) makes the kernel answer with a reset, which may discard the answer
    /// before the client reads it: so the server stops writing, reads and drops what still comes for a
    /// moment, then closes.
    private func send(_ answer: ByteBuffer, _ context: ChannelHandlerContext) {
        timeline.writeBelowHTTP(answer) {
            context.close(mode: .output, promise: nil)
            context.eventLoop.assumeIsolated().scheduleTask(in: Self.lingering) { context.close(promise: nil) }
        }
    }

    /// How long an error answer's connection drains what the client still sends before it closes.
    static let lingering = TimeAmount.seconds(2)
}
