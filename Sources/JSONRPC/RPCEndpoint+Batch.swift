import JSON
import System

extension RPCEndpoint {
    /// Answers a batch: an array of the responses, within `maxResponseBytes` for the results and with an error of
    /// its own for each item that would pass the bound; nil when every item was a notification.
    func respond(batch items: [JSONValue]) -> [UInt8]? {
        if items.isEmpty {
            return Self.encode(RPCResponse.error(id: .null, .invalidRequest("an empty batch is not a valid request")))
        }
        if items.count > limits.maxBatchItems {
            return Self.encode(
                RPCResponse.error(
                    id: .null,
                    .invalidRequest(
                        "a batch of \(items.count) requests; the most is \(limits.maxBatchItems): split it (none of it was run)"
                    )))
        }
        let maxBytes = limits.maxResponseBytes
        var refusals = Refusals(enabled: true)
        var bytes: [UInt8] = [0x5B]
        var answered = 0
        for item in items {
            // The room left; an error in place of an item always fits, so that every request is answered.
            let room = maxBytes - bytes.count - 1
            guard let (id, response) = response(to: item, room: room, &refusals) else { continue }
            var encoded = response
            let needed = bytes.count + encoded.count + 1
            if needed > bytes.capacity {
                // The batch's bytes grow by doubling up to the bound, then by an eighth for the errors past it; the
                // new buffer must fit in memory.
                var capacity =
                    needed <= maxBytes + 1
                    ? min(max(2 * bytes.capacity, needed), maxBytes + 1) : needed + max(needed / 8, 1 << 16)
                if capacity >= MessageReader.roomCheckBytes, !MemoryRoom.fits(capacity) {
                    encoded = Self.encode(
                        RPCResponse.error(
                            id: id,
                            .resourceExhausted(
                                "the batch's responses so far take \(bytes.count) bytes, and this one would not fit beside them in the memory the process has left; split the batch"
                            )))
                    // Only the error's few bytes are added.
                    capacity = bytes.count + encoded.count + 1
                }
                bytes.reserveCapacity(max(capacity, bytes.count + encoded.count + 1))
            }
            if answered > 0 { bytes.append(0x2C) }
            bytes += encoded
            answered += 1
        }
        bytes.append(0x5D)
        return answered == 0 ? nil : bytes
    }
}

/// The reads of a batch refused for want of room, so that the same read later in the batch is refused again
/// without being run (the room only shrinks as a batch goes on; a write forgets them all).
struct Refusals {
    let enabled: Bool
    private var entries: [(method: String, params: JSONValue?, outcome: Result<JSONValue, RPCError>, room: Int)] = []
    /// The most refusals remembered: a batch of many different large reads is bounded by the response bound
    /// anyway; the list only spares the repeated ones.
    static let capacity = 16

    init(enabled: Bool) { self.enabled = enabled }

    func refused(_ request: RPCRequest, room: Int) -> Result<JSONValue, RPCError>? {
        guard enabled else { return nil }
        return entries.last { $0.method == request.method && room <= $0.room && $0.params == request.params }?.outcome
    }

    mutating func remember(_ request: RPCRequest, _ outcome: Result<JSONValue, RPCError>, room: Int) {
        guard enabled else { return }
        if entries.count == Self.capacity { entries.removeFirst() }
        entries.append((request.method, request.params, outcome, room))
    }

    mutating func forget() { entries.removeAll() }
}
