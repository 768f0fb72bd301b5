// What the compiler accepts and refuses, as a project sees the package (its emitted declarations): typing.test.js
// compiles this file in strict mode and expects no error, so each line under `@ts-expect-error` must be one.
import { EntityIndex } from "../dist/esm/index.js";
import type { Entity, EntityRecord, Filter, PropertyValue, SelectedEntity } from "../dist/esm/index.js";

/** True when A and B are the same type. */
type Equal<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false;
const same = <A, B>(check: Equal<A, B>): Equal<A, B> => check;

interface OrderProps {
  status: string;
  total: number;
  placedAt: Date;
  tags?: string[];
}
interface CustomerProps {
  name: string;
}

export async function typing(index: EntityIndex): Promise<void> {
  // A Date wherever the record wants a date: lastUsedAt, expiresAt, a property; and in a filter.
  const order: EntityRecord<OrderProps> = {
    type: "order", id: 1042, title: "Order #1042-A", lastUsedAt: new Date(), expiresAt: new Date("2027-01-01T00:00:00Z"),
    properties: { status: "shipped", total: 42.5, placedAt: new Date() },
  };
  const filter: Filter = { property: "placedAt", op: "between", value: [new Date(0), new Date()] };
  // @ts-expect-error a date field takes a string or a Date, not a number
  const badDate: EntityRecord = { type: "order", id: 1, title: "x", lastUsedAt: 1700000000 };

  // The properties of a typed record are checked: a wrong type, an unknown name, a value no property can hold.
  // @ts-expect-error total is a number
  await index.ingest<OrderProps>([{ type: "order", id: 1, title: "x", properties: { status: "s", total: "42", placedAt: new Date() } }]);
  // @ts-expect-error totl is not a property of OrderProps
  await index.ingest<OrderProps>([{ type: "order", id: 1, title: "x", properties: { status: "s", totl: 42, placedAt: new Date() } }]);
  // @ts-expect-error a nested object is not a property value
  await index.ingest([{ type: "order", id: 1, title: "x", properties: { address: { city: "Paris" } } }]);
  // @ts-expect-error a properties type whose values are not property values
  await index.search<{ address: { city: string } }>({ query: "x" });
  // @ts-expect-error an unknown record field
  await index.ingest([{ type: "order", id: 1, title: "x", titel: "y" }]);

  // Records typed, inferred, of several property types, or of several shapes in one variable.
  await index.ingest([order]);
  await index.ingest([{ type: "order", id: 1, title: "x", properties: { total: 1 } }]);
  const customer: EntityRecord<CustomerProps> = { type: "customer", id: "c1", title: "Ada", properties: { name: "Ada" } };
  await index.ingest<OrderProps | CustomerProps>([order, customer]);
  const several: EntityRecord<OrderProps | CustomerProps>[] = [order, customer];
  // @ts-expect-error an interface has no index signature, so a typed record is not an EntityRecord of any properties
  const plain: EntityRecord = order;
  const mixed = [
    { type: "order", id: 1, title: "x", properties: { total: 1 } },
    { type: "note", id: 2, title: "y", properties: { text: "z", at: new Date() } },
  ];
  await index.ingest(mixed);
  await index.lint({ records: [order] });
  await index.drill({ records: [order], type: "order" });

  // Results carry the properties type; a Date that was pushed comes back as its ISO-8601 string.
  const { entities, total: matched, nextCursor } = await index.search<OrderProps>({ query: "1042", filters: [filter] });
  same<number, typeof matched>(true);
  same<string | undefined, typeof nextCursor>(true);
  await index.search({ query: "1042", cursor: nextCursor });
  await index.search({ query: "show me order 1042", matching: "frequency" });
  await index.userQuery({ query: "show me", matching: "last" });
  // @ts-expect-error matching is all, frequency or last
  await index.search({ query: "x", matching: "most" });
  const found: Entity<OrderProps> | undefined = entities[0];
  const total = found?.properties?.total;
  same<number | undefined, typeof total>(true);
  same<string, NonNullable<Entity<OrderProps>["properties"]>["placedAt"]>(true);
  same<string[] | undefined, NonNullable<Entity<OrderProps>["properties"]>["tags"]>(true);
  same<string | null | undefined, Entity<OrderProps>["lastUsedAt"]>(true);
  const got = await index.get<OrderProps>({ type: "order", ids: [1042] });
  const page = await index.all<OrderProps>({ type: "order" });
  const matches = await index.query<OrderProps>({ type: "order" });
  const related = await index.related<OrderProps>({ type: "customer", id: "c1" });
  const suggested = await index.suggest<OrderProps>();
  const typed = await index.userQuery<OrderProps>({ query: "10" });
  same<Entity<OrderProps>[], typeof got.entities>(true);
  same<Entity<OrderProps>[], typeof page.entities>(true);
  same<Entity<OrderProps>[], typeof matches.entities>(true);
  same<Entity<OrderProps>[], typeof related.entities>(true);
  same<Entity<OrderProps>[], typeof suggested.entities>(true);
  same<Entity<OrderProps>[], typeof typed.items>(true);
  // @ts-expect-error placedAt comes back as a string, not a Date
  const placedAt: Date | undefined = found?.properties?.placedAt;

  // With fields, each entity is a SelectedEntity: type and id always, the rest only when asked for; a union of types.
  const cut = await index.search<OrderProps>({ query: "1042", type: ["order", "product"], fields: ["title", "properties.total"] });
  same<SelectedEntity<OrderProps>[], typeof cut.entities>(true);
  same<string | undefined, typeof cut.entities[0]["title"]>(true);
  same<number | undefined, NonNullable<SelectedEntity<OrderProps>["properties"]>["total"]>(true);
  const cutPage = await index.all<OrderProps>({ type: ["order", "customer"], fields: ["title"] });
  same<SelectedEntity<OrderProps>[], typeof cutPage.entities>(true);
  same<string | undefined, typeof cutPage.nextCursor>(true);
  const cutItems = await index.userQuery<OrderProps>({ query: "10", fields: ["subtitle"] });
  same<SelectedEntity<OrderProps>[], typeof cutItems.items>(true);
  // @ts-expect-error a field that is not one of an entity
  await index.search({ query: "x", fields: ["titel"] });
  // @ts-expect-error a type is a string or an array of strings
  await index.search({ query: "x", type: 3 });

  // Without a type: any property, of any property value (a Date among them comes back as a string).
  const any = (await index.search({ query: "x" })).entities[0]?.properties?.["anything"];
  same<Exclude<PropertyValue, Date> | undefined, typeof any>(true);

  // Expectations: each case's request is typed as its method's params, the report as the pipe's.
  const report = await index.test([{ name: "n", search: { query: "1042", limit: 5 }, expect: { top: ["order/1042"] } }], { now: new Date() });
  same<"passed" | "failed" | "wrong", (typeof report.cases)[number]["status"]>(true);
  same<string[], (typeof report.cases)[number]["got"]>(true);
  // @ts-expect-error an unknown method in a case
  await index.test([{ name: "n", serch: { query: "x" }, expect: { empty: true } }]);
  // @ts-expect-error a case's params are its method's: limit is a number
  await index.test([{ name: "n", search: { query: "x", limit: "5" }, expect: { empty: true } }]);
  // @ts-expect-error a case needs what its answer must hold
  await index.test([{ name: "n", search: { query: "x" } }]);

  // A Date for the fixed clock.
  await EntityIndex.open({ now: new Date("2026-03-02T09:00:00Z") });
  void [badDate, placedAt, several, plain];
}

// The browser entry: the same typed API from connect, the plugin's web implementation typed like the native one.
import { EntityIndex as BrowserIndex, registerEntityIndex } from "../dist/esm/browser.js";
import type { EntityIndexPlugin, RegisterPlugin } from "../dist/esm/browser.js";

export async function browserTyping(register: RegisterPlugin): Promise<void> {
  const index = await BrowserIndex.connect({ url: "http://127.0.0.1:8765", token: "t" });
  const { entities } = await index.search<OrderProps>({ query: "1042" });
  const total: number | undefined = entities[0]?.properties?.total;
  const placed: string | undefined = entities[0]?.properties?.placedAt;
  // @ts-expect-error connect needs the server's url
  await BrowserIndex.connect({ token: "t" });
  // @ts-expect-error the browser entry starts no process
  await BrowserIndex.open({ db: "x.sqlite" });
  const node = await EntityIndex.connect({ url: "http://127.0.0.1:8765" });
  same<Awaited<ReturnType<typeof node.stats>>, Awaited<ReturnType<typeof index.stats>>>(true);
  const plugin: EntityIndexPlugin = registerEntityIndex(register, { url: "http://127.0.0.1:8765" });
  await plugin.ingest<OrderProps>({ records: [{ type: "order", id: 1, title: "x", properties: { status: "new", total: 1, placedAt: new Date() } }] });
  // @ts-expect-error a typed ingest checks its records' properties
  await plugin.ingest<OrderProps>({ records: [{ type: "order", id: 1, title: "x", properties: { status: 3, total: 1, placedAt: new Date() } }] });
  const found = await plugin.search<OrderProps>({ query: "x" });
  same<NonNullable<(typeof found.entities)[number]["properties"]>["placedAt"], string>(true);
  void total;
  void placed;
}
