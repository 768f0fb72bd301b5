// The framing target: lines, LSP headers and detection on any bytes, delivered in pieces of sizes the input picks.
#if FUZZING
    import JSON
    import JSONRPC

    /// Answers every request with its params; enough to run the endpoint on whatever the reader delivers.
    final class EchoService: RPCService {
        var dialect: RPCDialect { .jsonRPC }
        func answer(_ request: RPCRequest, room: Int) -> RPCAnswer { .result(request.params ?? .null) }
        func isReadOnly(_ request: RPCRequest) -> Bool { true }
    }

    nonisolated(unsafe) let echo = EchoService()

    /// Every item read from `input`, each answered by an endpoint; traps on a broken invariant.
    func framingItems(_ input: [UInt8], framing: Framing?, pieces: [UInt8]) -> [MessageReader.Item] {
        let maxBytes = 512
        var offset = 0
        var step = 0
        let reader = MessageReader(
            source: { buffer in
                let piece = 1 + Int(pieces.isEmpty ? 255 : pieces[step % pieces.count])
                step += 1
                let n = min(piece, buffer.count, input.count - offset)
                for i in 0..<n { buffer[i] = input[offset + i] }
                offset += n
                return n
            }, maxMessageBytes: maxBytes, framing: framing)
        let endpoint = RPCEndpoint(
            service: echo, limits: RPCLimits(maxMessageBytes: maxBytes, maxResponseBytes: 4096, maxDepth: 32))
        var items: [MessageReader.Item] = []
        while true {
            let item = reader.next()
            switch item {
            case .end: return items
            case .interrupted: fatalError("interrupted without a signal")
            case .message(let bytes) where bytes.count > maxBytes: fatalError("a message past the bound")
            default: break
            }
            // Each item is at least a byte of input: more items than bytes means the reader did not move on.
            if items.count > input.count + 1 { fatalError("no progress after \(items.count) items") }
            if let answer = endpoint.respond(to: item, framing: reader.framing ?? .lines) {
                guard (try? JSONParser(maxDepth: 64).parse(answer)) != nil else {
                    fatalError("an answer that is not JSON")
                }
                if answer.count > 4096 + 1024 { fatalError("an answer past the bound: \(answer.count) bytes") }
            }
            items.append(item)
        }
    }

    /// The first byte picks the framing and the piece sizes; the rest is the stream. Beyond the invariants above: a
    /// well-framed message after the stream (and a line end) is read whole, whatever came before, as long as the
    /// stream holds no `Content-Length` of its own (which may rightly claim the bytes after it).
    func fuzzFraming(_ bytes: [UInt8]) {
        guard let mode = bytes.first else { return }
        let stream = Array(bytes.dropFirst())
        let pieces = stream.prefix(8).map { $0 & UInt8((mode >> 2) | 1) }
        let framing: Framing? = [nil, .lines, .headers, .headers][Int(mode & 3)]
        _ = framingItems(stream, framing: framing, pieces: pieces)
        let probe = Array(#"{"jsonrpc":"2.0","id":7,"method":"m"}"#.utf8)
        switch framing {
        case .headers?:
            let lowered = String(decoding: stream, as: UTF8.self).lowercased()
            guard !lowered.contains("content-length") else { return }
            let framed = stream + Array("\nContent-Length: \(probe.count)\r\n\r\n".utf8) + probe
            let items = framingItems(framed, framing: .headers, pieces: pieces)
            guard items.last == .message(probe) else { fatalError("the message after the stream was lost: \(items)") }
        case .lines?:
            let items = framingItems(stream + [0x0A] + probe + [0x0A], framing: .lines, pieces: pieces)
            guard items.last == .message(probe) else { fatalError("the line after the stream was lost: \(items)") }
        case nil:
            break
        }
    }
#endif
