import JSON
import System

extension RPCEndpoint {
    /// Why an encoding stopped before its end.
    public enum EncodingStop: Error {
        /// It passed the limit it was given.
        case tooLarge
        /// Its buffer's next doubling would not fit in the memory the process has left.
        case noRoom
        /// A stop signal arrived.
        case interrupted
    }

    /// Encodes `value`, stopping soon after it passes `limit` bytes, before its buffer outgrows the memory left
    /// (checked past 1 MiB), or at a stop signal.
    public static func encode(_ value: JSONValue, limit: Int) -> Result<[UInt8], EncodingStop> {
        var stop: EncodingStop?
        var writer = JSONWriter(
            capacity: 512,
            shouldStop: { written in
                if StopSignal.received != nil {
                    stop = .interrupted
                } else if written > limit {
                    stop = .tooLarge
                } else if written >= MessageReader.roomCheckBytes, !MemoryRoom.fits(2 * written) {
                    stop = .noRoom
                }
                return stop != nil
            })
        writer.write(value)
        if let stop { return .failure(stop) }
        return writer.bytes.count > limit ? .failure(.tooLarge) : .success(writer.bytes)
    }

    /// Encodes the response to request `id` within `limit` bytes. One larger, or one that did not fit in the memory
    /// left as it was encoded, becomes a `resource_exhausted` error for the same id (also returned as `refusal`);
    /// one whose encoding a stop signal cut short an `interrupted` error.
    func encode(_ outcome: Result<JSONValue, RPCError>, id: JSONValue, within limit: Int) -> (
        bytes: [UInt8], refusal: RPCError?
    ) {
        let response: JSONValue
        switch outcome {
        case .success(let result): response = RPCResponse.result(id: id, result)
        case .failure(let error): response = RPCResponse.error(id: id, error)
        }
        let error: RPCError
        switch Self.encode(response, limit: max(0, limit)) {
        case .success(let bytes): return (bytes, nil)
        case .failure(.interrupted):
            let error = RPCError.interrupted("interrupted by a stop signal while the response was encoded")
            return (Self.encode(RPCResponse.error(id: id, error)), nil)
        case .failure(.noRoom):
            error = .resourceExhausted(
                "the response did not fit in the memory the process has left while it was encoded; ask for fewer entities (limit, cursor, fewer ids)"
            )
        case .failure(.tooLarge):
            error = .resourceExhausted(
                "the response is more than the \(max(0, limit)) bytes left of the \(limits.maxResponseBytes) a response may take; ask for fewer entities (limit, cursor, fewer ids) or split the batch"
            )
        }
        return (Self.encode(RPCResponse.error(id: id, error)), error)
    }

    /// A response's bytes.
    public static func encode(_ response: JSONValue) -> [UInt8] {
        var writer = JSONWriter(capacity: 512)
        writer.write(response)
        return writer.bytes
    }
}
