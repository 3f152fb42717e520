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
/// from its first byte to its end), or answering. An answer has its own deadline, the request
/// timeout again: from when its end is handed to the connection, or the connection stops taking
/// bytes, until it is written, so that a client that never reads holds nothing for ever.
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
    /// A head was parsed and its end not yet, and whether that request was answered already.
    private(set) var arriving = false
    private var arrivingWasAnswered = false
    /// Answers handed to the connection to their end and not yet written.
    private var unwritten = 0
    private var isWritable = true
    private var writeDeadline: Scheduled<Void>?
    /// The bytes of the current request's first line seen so far, and whether its end was seen: a
    /// head the parser finds too large is a long URL (414) or long headers (431).
    private(set) var requestLineBytes = 0
    private(set) var requestLineEnded = false
    /// No request after the current ones will be read: what still arrives is dropped before the
    /// parser (which, after an upgrade or CONNECT, would otherwise keep every byte).
    var dropsInput = false
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
        writeDeadline?.cancel()
        writeDeadline = nil
    }

    /// Writes bytes as they are, below the HTTP encoder (set by ``RequestBytesHandler``), then calls `done`.
    var rawWriter: ((ByteBuffer, @escaping () -> Void) -> Void)?

    func writeBelowHTTP(_ bytes: ByteBuffer, then done: @escaping () -> Void) {
        guard let rawWriter else { return channel.close(promise: nil) }
        rawWriter(bytes, done)
    }

    /// Bytes arrived, not yet parsed.
    func bytesArrived(_ buffer: ByteBuffer) {
        if phase == .waiting { enter(.receiving) }
        guard !requestLineEnded else { return }
        var bytes = buffer.readableBytesView[...]
        // HTTP lets a client send empty lines before a request line; they are not part of it.
        if requestLineBytes == 0 { bytes = bytes.drop { $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\n") } }
        if let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) {
            requestLineBytes += newline - bytes.startIndex
            requestLineEnded = true
        } else {
            requestLineBytes += bytes.count
        }
    }

    /// A request's head was parsed.
    func headParsed(keepAlive: Bool, isHTTP10: Bool) {
        pending.append((keepAlive, isHTTP10, false))
        arriving = true
        arrivingWasAnswered = false
        settle()
    }

    /// A request's end was parsed: the next request's first line starts after it.
    func endParsed() {
        arriving = false
        requestLineBytes = 0
        requestLineEnded = false
        if arrivingWasAnswered {
            arrivingWasAnswered = false
        } else if !pending.isEmpty {
            pending[pending.count - 1].ended = true
        }
        settle()
    }

    /// The request the answer now being written is for: whether it keeps the connection, is
    /// HTTP/1.0 (which keeps one only when told `Connection: keep-alive`), and is the last owed.
    var answering: (keepAlive: Bool, isHTTP10: Bool, isLast: Bool) {
        (pending.first?.keepAlive ?? true, pending.first?.isHTTP10 ?? false, pending.count <= 1)
    }

    /// An answer's end was handed to the connection: whether its request kept the connection open.
    /// Its write deadline starts; the phase changes once it is written (``answerWritten()``): an
    /// answer a slow client is still reading is no idle connection.
    func answerHandedOver() -> Bool {
        unwritten += 1
        updateWriteDeadline()
        guard let answered = pending.popFirst() else { return true }
        if !answered.ended { arrivingWasAnswered = true }
        return answered.keepAlive
    }

    func answerWritten() {
        unwritten = max(0, unwritten - 1)
        updateWriteDeadline()
        settle()
    }

    /// Whether an answer is owed or unwritten, or was given to the request now arriving: an error
    /// answer written now would be a second answer to a request, or come before earlier ones.
    var hasAnswered: Bool { !pending.isEmpty || arrivingWasAnswered || unwritten > 0 }

    /// Whether every answer owed has been written.
    var isSettled: Bool { pending.isEmpty && unwritten == 0 }

    /// Enters the phase the requests say: answering while the oldest has arrived whole and is not
    /// answered, receiving while one is arriving, answering while an answer is being written,
    /// waiting otherwise. The same phase keeps its deadline: a request's counts from its first byte.
    func settle() {
        let next: ConnectionRegistry.Phase =
            if pending.first?.ended == true { .answering } else if arriving { .receiving } else if unwritten > 0 { .answering } else { .waiting }
        guard next != phase else { return }
        enter(next)
    }

    /// The channel's writability: a connection that stops taking bytes of an answer must take them
    /// again within the request timeout.
    func writabilityChanged(isWritable: Bool) {
        self.isWritable = isWritable
        updateWriteDeadline()
    }

    private func updateWriteDeadline() {
        guard unwritten > 0 || !isWritable else {
            writeDeadline?.cancel()
            writeDeadline = nil
            return
        }
        guard writeDeadline == nil, !stopped else { return }
        writeDeadline = channel.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(limits.requestTimeout)) { [weak self] in
            guard let self else { return }
            self.writeDeadline = nil
            self.logger.debug("closing connection", metadata: ["reason": "answer not read"])
            self.channel.close(promise: nil)
        }
    }

    /// Chosen to make room: closes, unless it is answering (it parsed a whole request after the
    /// registry last heard from it), and then stays.
    func makeRoom() {
        guard phase == .answering else {
            logger.debug("closing connection", metadata: ["reason": "to make room"])
            return channel.close(promise: nil)
        }
        registry.spare(channel, phase: phase)
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

/// First in the pipeline: sees each request's first bytes before the HTTP parser does, and drops
/// what arrives once no more requests will be read.
final class RequestBytesHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let timeline: ConnectionTimeline

    init(timeline: ConnectionTimeline) { self.timeline = timeline }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !timeline.dropsInput else { return }
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
        timeline.stop()
    }

    func channelInactive(context: ChannelHandlerContext) {
        timeline.stop()
        context.fireChannelInactive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is ConnectionRegistry.MakeRoom else { return context.fireUserInboundEventTriggered(event) }
        timeline.makeRoom()
    }
}

/// Right after the HTTP parser: follows requests and answers for the ``ConnectionTimeline``, closes
/// the connection after answering a request that did not ask to keep it (Hummingbird keeps an
/// HTTP/1.0 one open), and answers what the parser refuses, and `CONNECT`, with the API's JSON error
/// — after the answers owed to requests before it.
final class RequestGuardHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let timeline: ConnectionTimeline
    /// No request after the current ones is read: the connection ends once their answers are written,
    /// with `finale` after them when there is one (an error answer carrying its own close).
    private var ending = false
    private var finale: ByteBuffer?
    private var finished = false
    private var lingeringClose: Scheduled<Void>?

    init(timeline: ConnectionTimeline) { self.timeline = timeline }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !ending else { return }
        switch unwrapInboundIn(data) {
        case .head(let head):
            // Every path answers GET and HEAD only; CONNECT's answer has no body in HTTP's framing
            // (NIO's encoder drops it), so it is refused here, before the router.
            if head.method == .CONNECT {
                return end(context, finale: Self.answer(
                    status: .methodNotAllowed, code: "method_not_allowed",
                    message: "every path answers GET and HEAD only, not CONNECT", allow: "GET, HEAD",
                    allocator: context.channel.allocator
                ))
            }
            // After a request asking to upgrade the protocol the parser reads no more requests;
            // nothing here upgrades, so it is answered as any other and the connection then ends.
            let upgrade = head.headers.contains(name: "upgrade")
                && head.headers[canonicalForm: "connection"].contains { $0.lowercased() == "upgrade" }
            timeline.headParsed(keepAlive: head.isKeepAlive && !upgrade, isHTTP10: head.version == .http1_0)
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
            let request = timeline.answering
            // The last answer before the connection ends says so, unless an error answer follows
            // (that one says it).
            if !request.keepAlive || (ending && finale == nil && request.isLast) {
                head.headers.replaceOrAdd(name: "connection", value: "close")
            } else if request.isHTTP10 {
                // HTTP/1.0 keeps a connection only when the answer says so too.
                head.headers.replaceOrAdd(name: "connection", value: "keep-alive")
            }
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .end:
            if !timeline.answerHandedOver() { ending = true }
            let written = context.eventLoop.makePromise(of: Void.self)
            if let promise { written.futureResult.cascade(to: promise) }
            written.futureResult.assumeIsolated().whenComplete { [self] _ in
                timeline.answerWritten()
                finishIfAnswered(context)
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

    func handlerRemoved(context: ChannelHandlerContext) {
        lingeringClose?.cancel()
        lingeringClose = nil
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A head cut short by a close (a timeout's, or the client's) is no request to answer.
        guard !ending, context.channel.isActive else { return }
        guard let parserError = error as? HTTPParserError else { return context.fireErrorCaught(error) }
        // Bytes after a request that asked to close, or bad bytes inside a request whose head was
        // read (and may be answered already): no request of its own, so no answer of its own.
        if parserError == .closedConnection || timeline.arriving { return end(context, finale: nil) }
        let refusal = Self.refusal(of: parserError, requestLineBytes: timeline.requestLineEnded ? timeline.requestLineBytes : nil)
        end(context, finale: Self.answer(
            status: refusal.status, code: refusal.code, message: refusal.message, allow: nil, allocator: context.channel.allocator
        ))
    }

    /// Reads no more requests; the connection ends with `finale` once the answers owed are written.
    private func end(_ context: ChannelHandlerContext, finale: ByteBuffer?) {
        ending = true
        self.finale = finale
        timeline.dropsInput = true
        finishIfAnswered(context)
    }

    /// Ends the connection when it is to end and no answer is owed or unwritten: the error answer
    /// first, written below the HTTP encoder (which drops the body of every answer to CONNECT, and
    /// which a refused request never reached). A close while the client is still sending (a long
    /// URL, a megabyte of headers) makes the kernel answer with a reset, which may discard the answer
    /// before the client reads it: so the server stops writing, drops what still comes for a moment,
    /// then closes.
    private func finishIfAnswered(_ context: ChannelHandlerContext) {
        guard ending, timeline.isSettled, !finished else { return }
        finished = true
        timeline.dropsInput = true
        let linger = { [self] in
            context.close(mode: .output, promise: nil)
            lingeringClose = context.eventLoop.assumeIsolated().scheduleTask(in: Self.lingering) { context.close(promise: nil) }
        }
        if let finale {
            self.finale = nil
            timeline.writeBelowHTTP(finale) { linger() }
        } else {
            linger()
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

    /// How long a connection that ends drains what the client still sends before it closes.
    static let lingering = TimeAmount.seconds(2)
}
