import EntityIndex
import JSON
import TestSupport
import Testing

/// `delete` with several selectors deletes their intersection (the contract's `delete`).
@Suite struct DeleteSelectorTests {
    func store() throws -> EntityStore {
        let store = try TestSupport.store()
        _ = try store.ingest([
            TestSupport.record("customer", "c1", "Ann", [("domain", "shop.customers")]),
            TestSupport.record("customer", "c2", "Bob", [("domain", "shop.orders.2025")]),
            TestSupport.record("order", "o1", "Order 1", [("domain", "shop.orders.2025")]),
            TestSupport.record("order", "o2", "Order 2", [("domain", "shop.orders.2025.q1")]),
            TestSupport.record("order", "o3", "Order 3", [("domain", "shop.orders.2024")]),
        ])
        return store
    }

    func remaining(_ store: EntityStore) throws -> [String] {
        try store.get(type: "customer", ids: ["c1", "c2"]).map(\.key.description)
            + store.get(type: "order", ids: ["o1", "o2", "o3"]).map(\.key.description)
    }

    @Test func typeAndDomainDeleteTheEntitiesOfThatTypeInTheDomain() throws {
        let store = try store()
        #expect(try store.delete(DeleteRequest(type: "customer", domains: ["shop.orders.2025"])) == 1)
        #expect(try remaining(store) == ["customer/c1", "order/o1", "order/o2", "order/o3"])
    }

    @Test func idsAndDomainDeleteOnlyTheIdsInTheDomain() throws {
        let store = try store()
        #expect(
            try store.delete(DeleteRequest(type: "order", ids: ["o1", "o3", "missing"], domains: ["shop.orders.2025"]))
                == 1)
        #expect(try remaining(store) == ["customer/c1", "customer/c2", "order/o2", "order/o3"])
    }

    @Test func severalDomainsAreAUnionAmongThemselves() throws {
        let store = try store()
        #expect(try store.delete(DeleteRequest(type: "order", domains: ["shop.orders.2025", "shop.orders.2024"])) == 3)
        #expect(try remaining(store) == ["customer/c1", "customer/c2"])
    }

    @Test func allTakesNoOtherSelector() throws {
        let store = try store()
        #expect { try store.delete(DeleteRequest(type: "order", all: true)) } throws: {
            ($0 as? EntityIndexError)?.code == .invalidParams
        }
        #expect(try remaining(store).count == 5)
    }
}
