// The http target: the HTTP/1.1 request parser on any bytes, delivered in pieces of sizes the input picks.
#if FUZZING
    import HTTP

    /// The first byte picks the piece sizes; the rest is the stream. Invariants: the same requests and the same
    /// failure whatever the pieces; no request past the bounds; a failure is a status the server answers with; and a
    /// well-formed request after a stream that parsed without failure and ended between requests is read.
    func fuzzHTTP(_ bytes: [UInt8]) {
        guard let mode = bytes.first else { return }
        let stream = Array(bytes.dropFirst())
        let limits = HTTPLimits(maxRequestLineBytes: 256, maxHeaderBytes: 512, maxHeaderCount: 8, maxBodyBytes: 300)
        let whole = httpSteps(stream, pieces: [255], limits: limits)
        let cut = httpSteps(stream, pieces: stream.prefix(8).map { $0 & (mode | 1) }, limits: limits)
        guard whole.steps == cut.steps else { fatalError("the pieces changed what was read") }
        for step in whole.steps {
            switch step {
            case .request(let box):
                let r = box.request
                if r.body.count > limits.maxBodyBytes || r.headers.count > limits.maxHeaderCount {
                    fatalError("a request past the bounds")
                }
                if !(r.target == "*" || r.target.hasPrefix("/")) {
                    fatalError("a target \(r.target) not in origin form")
                }
            case .failure(let f):
                if ![400, 404, 408, 411, 413, 414, 417, 431, 501, 505].contains(f.status) {
                    fatalError("an unexpected status \(f.status)")
                }
            case .needMore: break
            }
        }
        guard !whole.failed, !whole.partial else { return }
        let probe = Array("POST /p HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\nok".utf8)
        let after = httpSteps(stream + probe, pieces: [255], limits: limits)
        guard case .request(let box)? = after.steps.last, box.request.body == Array("ok".utf8) else {
            fatalError("the request after the stream was lost")
        }
    }

    func httpSteps(_ input: [UInt8], pieces: [UInt8], limits: HTTPLimits) -> (
        steps: [HTTPParser.Step], failed: Bool, partial: Bool
    ) {
        var parser = HTTPParser(limits: limits)
        var steps: [HTTPParser.Step] = []
        var offset = 0
        var i = 0
        while offset < input.count {
            let n = min(1 + Int(pieces.isEmpty ? 255 : pieces[i % pieces.count]), input.count - offset)
            i += 1
            parser.append(input[offset..<(offset + n)])
            offset += n
            while true {
                let step = parser.next()
                if step == .needMore { break }
                steps.append(step)
                if case .failure = step { return (steps, true, false) }
                if steps.count > input.count + 1 { fatalError("no progress") }
            }
        }
        return (steps, false, parser.hasPartialRequest)
    }
#endif
