// The example of the README, as written; test/client.test.js runs it.
import { EntityIndex } from "../src";

declare const console: { log(...values: unknown[]): void };

async function main(): Promise<void> {
  const index = await EntityIndex.open({ db: "shop.sqlite", binary: "entityidx" });
  await index.ingest([{ type: "order", id: "1042", title: "Order #1042-A" }]);
  const { entities } = await index.search({ query: "1042", limit: 5 });
  await index.close();
  console.log(JSON.stringify(entities));
}

main();
