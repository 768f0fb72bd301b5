// swift-format-ignore-file
// Generated from schema/pipe.schema.json and schema/record.schema.json by scripts/gen-schema.sh. Do not edit.

extension PipeSchema {
    static let pipeText = #"""
{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://entityidx.dev/schema/pipe.schema.json",
  "title": "entityidx pipe (JSON-RPC 2.0)",
  "description": "Requests, responses, and for each method its params and result. `methods.M.params` and `methods.M.result` are schemas; `$defs.request` and `$defs.response` describe the envelope. Entities are records as ingested (record.schema.json) plus what a method adds.",
  "$defs": {
    "id": {"type": ["string", "number", "null"]},
    "request": {
      "type": "object",
      "required": ["jsonrpc", "method"],
      "properties": {
        "jsonrpc": {"const": "2.0"},
        "id": {"$ref": "#/$defs/id"},
        "method": {"enum": ["ingest", "get", "search", "suggest", "all", "query", "related", "delete", "donate", "batch.begin", "batch.end", "batch.abort", "state", "reindex.request", "reindex.pending", "reindex.ack", "stats", "declare", "declarations", "complete", "lint", "drill", "rpc.discover", "spotlight", "userQuery", "test"]},
        "params": {"type": "object"}
      }
    },
    "response": {
      "oneOf": [
        {"type": "object", "required": ["jsonrpc", "id", "result"], "additionalProperties": false,
         "properties": {"jsonrpc": {"const": "2.0"}, "id": {"$ref": "#/$defs/id"}, "result": {}}},
        {"type": "object", "required": ["jsonrpc", "id", "error"], "additionalProperties": false,
         "properties": {"jsonrpc": {"const": "2.0"}, "id": {"$ref": "#/$defs/id"}, "error": {"$ref": "#/$defs/error"}}}
      ]
    },
    "error": {
      "type": "object",
      "required": ["code", "message", "data"],
      "additionalProperties": false,
      "properties": {
        "code": {"enum": [-32700, -32600, -32601, -32602, -32000]},
        "message": {"type": "string", "minLength": 1},
        "data": {
          "type": "object",
          "required": ["code"],
          "additionalProperties": false,
          "properties": {
            "code": {"type": "string", "pattern": "^[a-z_]+$"},
            "records": {"type": "array", "items": {"$ref": "#/$defs/recordProblem"}},
            "character": {"type": "integer", "minimum": 1, "description": "invalid_query: the 1-based character of the query where the problem is"}
          }
        }
      }
    },
    "recordProblem": {"type": "object", "required": ["position", "problem"], "additionalProperties": false,
      "properties": {"position": {"type": "integer"}, "line": {"type": "integer"}, "entity": {"type": "string"},
                     "field": {"type": "string"}, "problem": {"type": "string"}}},
    "typeName": {"type": "string", "minLength": 1, "maxLength": 128, "pattern": "^[A-Za-z_][A-Za-z0-9_.-]*$"},
    "typeNames": {"anyOf": [{"$ref": "#/$defs/typeName"}, {"type": "array", "items": {"$ref": "#/$defs/typeName"}, "minItems": 1}]},
    "entityId": {"oneOf": [{"type": "string", "minLength": 1}, {"type": "integer"}]},
    "limit": {"type": "integer", "minimum": 0, "maximum": 10000},
    "entity": {
      "type": "object",
      "required": ["type", "id", "title"],
      "properties": {
        "type": {"$ref": "#/$defs/typeName"}, "id": {"type": "string"}, "title": {"type": "string"},
        "score": {"type": "number"}, "engagement": {"type": "number"},
        "explain": {"type": "object"}, "highlights": {"type": "array", "items": {"type": "object", "required": ["field", "start", "end", "text"]}},
        "matchedBy": {"type": "array", "items": {"enum": ["joined", "phone", "reading", "split", "stem", "synonym", "transliteration", "typo"]}, "description": "search: how the entity matched beyond the words as typed; absent when it matched as typed"}
      }
    },
    "selectedEntity": {
      "description": "An entity of a request with fields: its type and id, the fields asked for that it has (properties.NAME: that property alone, in properties), and what the method adds (score, engagement, explain, highlights, matchedBy).",
      "type": "object",
      "required": ["type", "id"],
      "properties": {"type": {"$ref": "#/$defs/typeName"}, "id": {"type": "string"}}
    },
    "resultEntity": {"anyOf": [{"$ref": "#/$defs/entity"}, {"$ref": "#/$defs/selectedEntity"}]},
    "fields": {"type": "array", "items": {"type": "string", "minLength": 1},
      "description": "Only these fields of each entity (properties.NAME for one property). Record fields (title, subtitle, …) and single properties as properties.NAME; type and id are always there, and so is what the method adds (score, …). An unknown field is an error; a property no entity has is simply absent. Left out: whole entities.",
      "examples": [["title", "subtitle", "properties.total"]]},
    "matching": {"enum": ["all", "frequency", "last"],
      "description": "How many terms must match. all: every one. frequency or last: every one first; when fewer entities than the page needs match them all, further passes leave terms out one at a time (frequency: the terms no entity holds, then the most frequent, ties the later first; last: from the end), never the only one, and what each pass finds ranks after what the passes before found (at most as many passes as terms)."},
    "entities": {
      "type": "object", "required": ["entities"], "additionalProperties": false,
      "properties": {"entities": {"type": "array", "items": {"$ref": "#/$defs/resultEntity"}}}
    },
    "filter": {
      "type": "object", "required": ["property", "op", "value"], "additionalProperties": false,
      "properties": {
        "property": {"type": "string", "minLength": 1, "description": "A property name (of the entities' properties)."},
        "op": {"enum": ["eq", "ne", "lt", "le", "gt", "ge", "between", "hasPrefix", "hasSuffix", "contains", "notContains"], "description": "The comparison (between: inclusive). eq ne lt le gt ge, between (inclusive), hasPrefix hasSuffix contains notContains."},
        "value": {"type": ["string", "number", "boolean", "array"], "description": "What to compare with; for between, [low, high] (inclusive). A string, number or boolean; for between, [low, high].", "examples": ["shipped", 50, [10, 50]]}
      }
    },
    "facetNames": {"type": "array", "items": {"type": "string", "minLength": 1},
      "description": "Count these: properties, type, domain. Their values are counted among every match, not just the page: property names, type (the entity type) or domain. A name that is neither, nor a property of the entities asked about, is an error naming it (with the closest name). At most 8; a name repeated counts once.",
      "examples": [["status", "type"]]},
    "facetCounts": {"type": "object", "description": "Per facet asked for, in the order asked: the values held by most matches first (then by value: numbers ascending, before strings by their compared text), at most 20, each with how many matches hold it. Strings are grouped as a filter eq compares them (case, width and accents ignored) and shown as the first entity holding the value wrote it; numbers and booleans are JSON values; a date is its string as written; an array counts each of its values once per entity.",
      "additionalProperties": {"type": "object", "required": ["values", "otherValues", "missing"], "additionalProperties": false,
        "properties": {
          "values": {"type": "array", "maxItems": 20, "items": {"type": "object", "required": ["value", "count"], "additionalProperties": false,
            "properties": {"value": {"type": ["string", "number", "boolean"], "description": "The value, as written."}, "count": {"type": "integer", "minimum": 1, "description": "How many counted matches hold it."}}}},
          "otherValues": {"type": "integer", "minimum": 0, "description": "How many other values the counted matches hold, left out of values."},
          "missing": {"type": "integer", "minimum": 0, "description": "How many counted matches hold no value: no such property, null, an empty array, or no domain."}}}},
    "facetsCounted": {"type": "integer", "minimum": 0, "description": "How many matches the facets counted: every match, up to 10,000 (then facetsAreLowerBounds)."},
    "facetsAreLowerBounds": {"const": true, "description": "Present when more than 10,000 entities match: the facets counted the first 10,000 read, and each count is a lower bound."},
    "empty": {"type": "object", "additionalProperties": false, "properties": {}},
    "record": {"$comment": "An entity record: record.schema.json (the OpenRPC document and the MCP tools carry it whole).", "type": "object"}
  },
  "methods": {
    "ingest": {"description": "Adds or replaces records (identity is type and id); all or nothing: a bad record rejects the call and names every bad record.",
      "params": {"type": "object", "required": ["records"], "additionalProperties": false,
                 "properties": {
                   "records": {"type": "array", "items": {"$ref": "#/$defs/record"}, "description": "The records to index (record.schema.json); an entity of the same type and id is replaced."},
                   "skipInvalid": {"type": "boolean", "description": "Leave invalid records out (counted in skipped, with their problems) instead of refusing the whole input.", "default": false}}},
      "result": {"type": "object", "required": ["inserted", "updated", "unchanged"], "additionalProperties": false,
                 "properties": {"inserted": {"type": "integer"}, "updated": {"type": "integer"}, "unchanged": {"type": "integer"},
                                "skipped": {"type": "integer"}, "problems": {"type": "array", "items": {"$ref": "#/$defs/recordProblem"}}}}
    },
    "get": {"description": "The entities with these ids, in their order (entities(for:)). Missing ids are left out of entities and named in missing.",
      "params": {"type": "object", "required": ["type", "ids"], "additionalProperties": false,
                 "properties": {
                   "type": {"$ref": "#/$defs/typeName", "description": "The type of the entities."},
                   "ids": {"type": "array", "items": {"$ref": "#/$defs/entityId"}, "description": "The ids to get. The result keeps this order, each entity once, missing and expired ones left out.", "examples": [["1042", "1043"]]},
                   "fields": {"$ref": "#/$defs/fields"}}},
      "result": {"type": "object", "required": ["entities"], "additionalProperties": false,
                 "properties": {"entities": {"type": "array", "items": {"$ref": "#/$defs/resultEntity"}},
                                "missing": {"type": "array", "description": "The ids asked that have no entity (never pushed, deleted or expired), in the order of ids, each once; present only when there are any",
                                            "items": {"type": "object", "required": ["type", "id"], "additionalProperties": false, "properties": {"type": {"type": "string"}, "id": {"type": "string"}}}}}}
    },
    "search": {"description": "Full-text search, best first (entities(matching:)). Every term must match, the last one as a prefix; typo matches only when nothing else matches; filters as in query. With matching frequency or last, when fewer than the page's results match every term, terms are left out one at a time and what fewer terms find follows.",
      "params": {"type": "object", "required": ["query"], "additionalProperties": false,
                 "properties": {
                   "query": {"type": "string", "description": "Words, ids or codes to look for. Every term must match, the last one as a prefix; typo matches only when nothing else matches.", "examples": ["cafe", "1042"]},
                   "type": {"$ref": "#/$defs/typeNames", "description": "Only entities of these types. One type, or an array of types: their union, ranked together.", "examples": ["order", ["order", "product"]]},
                   "limit": {"$ref": "#/$defs/limit", "description": "The most entities to return.", "default": 20},
                   "filters": {"type": "array", "items": {"$ref": "#/$defs/filter"}, "description": "Property filters every result must also pass, as in query."},
                   "explain": {"type": "boolean", "description": "Add to each entity the ranking tiers that placed it. With matching frequency or last, first words is the terms matched of the query's, as \"2/3\".", "default": false},
                   "highlight": {"type": "boolean", "description": "Add the matched spans of each field. Each span is a start and end in UTF-16 code units.", "default": false},
                   "cursor": {"type": "string", "description": "Continue a search: the nextCursor of its previous page. Same query, type, filters and matching. Pages concatenated equal one request of their combined size; pages reach the first 10,000 results.", "examples": ["20-8c3f0e9a51d2b7c4"]},
                   "fields": {"$ref": "#/$defs/fields"},
                   "matching": {"$ref": "#/$defs/matching", "default": "all"},
                   "facets": {"$ref": "#/$defs/facetNames"}}},
      "result": {"type": "object", "required": ["entities", "total"], "additionalProperties": false,
                 "properties": {"entities": {"type": "array", "items": {"$ref": "#/$defs/resultEntity"}},
                                "total": {"type": "integer", "minimum": 0, "description": "How many entities match (with matching frequency or last, how many every page together returns, fewer terms included): exact up to 100, beyond it a lower bound (totalIsLowerBound)."},
                                "totalIsLowerBound": {"const": true, "description": "Present when more than 100 entities match: total is then the number known to match, not all of them."},
                                "nextCursor": {"type": "string", "description": "The cursor of the next page; absent on the last page (and at 10,000 results)."}, "facets": {"$ref": "#/$defs/facetCounts"}, "facetsCounted": {"$ref": "#/$defs/facetsCounted"}, "facetsAreLowerBounds": {"$ref": "#/$defs/facetsAreLowerBounds"}}}
    },
    "complete": {"description": "Completions of the last word being typed, most frequent first. As the records write it, with the number of entities that hold each; with words before the last, only among the entities that match them.",
      "params": {"type": "object", "required": ["prefix"], "additionalProperties": false,
                 "properties": {
                   "prefix": {"type": "string", "description": "The text typed so far. Its last word is completed, among the entities that match the words before it.", "examples": ["wid", "call j"]},
                   "limit": {"$ref": "#/$defs/limit", "description": "The most completions to return.", "default": 8}}},
      "result": {"type": "object", "required": ["completions"], "additionalProperties": false,
                 "properties": {"completions": {"type": "array", "items": {"type": "object", "required": ["term", "documents"], "additionalProperties": false,
                   "properties": {"term": {"type": "string", "description": "The word as a record writes it (Kaffeemühle, e-mail)."}, "documents": {"type": "integer", "description": "How many entities hold it (among the first 1,000 matching the words before the last, when there are)."}}}}}}
    },
    "suggest": {"description": "Suggested entities from priority, recency and donations (suggestedEntities()).",
      "params": {"type": "object", "additionalProperties": false,
                 "properties": {
                   "type": {"$ref": "#/$defs/typeNames", "description": "Only entities of this type, or of these types (an array: their union).", "examples": ["order", ["order", "product"]]},
                   "limit": {"$ref": "#/$defs/limit", "description": "The most entities to return.", "default": 10},
                   "fields": {"$ref": "#/$defs/fields"}}},
      "result": {"$ref": "#/$defs/entities"}
    },
    "all": {"description": "Every entity of a type, a page at a time (allEntities()).",
      "params": {"type": "object", "required": ["type"], "additionalProperties": false,
                 "properties": {
                   "type": {"$ref": "#/$defs/typeNames", "description": "The type of the entities to list, or an array of types. Their union is listed type by type (in byte order), the cursor then being the last entity's type/id.", "examples": ["order", ["customer", "order"]]},
                   "limit": {"$ref": "#/$defs/limit", "description": "The most entities in this page.", "default": 100},
                   "cursor": {"type": "string", "description": "The nextCursor of the previous page; left out for the first page."},
                   "fields": {"$ref": "#/$defs/fields"},
                   "facets": {"$ref": "#/$defs/facetNames"}}},
      "result": {"type": "object", "required": ["entities"], "additionalProperties": false,
                 "properties": {"entities": {"type": "array", "items": {"$ref": "#/$defs/resultEntity"}}, "nextCursor": {"type": "string"}, "facets": {"$ref": "#/$defs/facetCounts"}, "facetsCounted": {"$ref": "#/$defs/facetsCounted"}, "facetsAreLowerBounds": {"$ref": "#/$defs/facetsAreLowerBounds"}}}
    },
    "query": {"description": "Entities of a type whose properties match filters, sorted (EntityPropertyQuery).",
      "params": {"type": "object", "required": ["type"], "additionalProperties": false,
                 "properties": {
                   "type": {"$ref": "#/$defs/typeNames", "description": "The type of the entities to query, or an array of types. Their union: filters and sort keys read each entity's own property.", "examples": ["order", ["order", "product"]]},
                   "filters": {"type": "array", "items": {"$ref": "#/$defs/filter"}, "description": "Property filters, combined as mode says; none: every entity of the type."},
                   "mode": {"enum": ["and", "or"], "description": "How the filters combine: and (every filter matches) or or (any one does).", "default": "and"},
                   "limit": {"$ref": "#/$defs/limit", "description": "The most entities to return. Left out, at most 10,000, with a nextCursor to go on."},
                   "cursor": {"type": "string", "description": "The nextCursor of a previous result, to continue after it."},
                   "sort": {"type": "array", "items": {"type": "object", "required": ["property"], "additionalProperties": false, "properties": {"property": {"type": "string", "description": "A property name to sort by."}, "order": {"enum": ["asc", "desc"], "description": "asc or desc.", "default": "asc"}}}, "description": "Sort keys, the first one first. Entities without the property come last; left out, and between ties: by id.", "examples": [[{"property": "total", "order": "desc"}]]},
                   "fields": {"$ref": "#/$defs/fields"},
                   "facets": {"$ref": "#/$defs/facetNames"}}},
      "result": {"type": "object", "required": ["entities"], "additionalProperties": false,
                 "properties": {"entities": {"type": "array", "items": {"$ref": "#/$defs/resultEntity"}}, "nextCursor": {"type": "string"}, "facets": {"$ref": "#/$defs/facetCounts"}, "facetsCounted": {"$ref": "#/$defs/facetsCounted"}, "facetsAreLowerBounds": {"$ref": "#/$defs/facetsAreLowerBounds"}}}
    },
    "related": {"description": "The entities an entity lists as related (out), those that list it (in), or both. Out leaves out the listed entities the index does not hold and names them in missing.",
      "params": {"type": "object", "required": ["type", "id"], "additionalProperties": false,
                 "properties": {
                   "type": {"$ref": "#/$defs/typeName", "description": "The type of the entity whose links to follow."},
                   "id": {"$ref": "#/$defs/entityId", "description": "Its id."},
                   "direction": {"enum": ["out", "in", "both"], "description": "out: the entities it lists as related; in: those that list it; both.", "default": "out"},
                   "fields": {"$ref": "#/$defs/fields"}}},
      "result": {"type": "object", "required": ["entities"], "additionalProperties": false,
                 "properties": {"entities": {"type": "array", "items": {"$ref": "#/$defs/resultEntity"}},
                                "missing": {"type": "array", "description": "out and both: the listed entities the index does not hold (deleted, expired or never pushed), in listed order; present only when there are any",
                                            "items": {"type": "object", "required": ["type", "id"], "additionalProperties": false, "properties": {"type": {"type": "string"}, "id": {"type": "string"}}}}}}
    },
    "delete": {"description": "Deletes by type, ids, domains (a domain and its subdomains) or all; several selectors intersect.",
      "params": {"type": "object", "additionalProperties": false,
                 "properties": {
                   "type": {"$ref": "#/$defs/typeNames", "description": "Delete the entities of this type, or of these types (an array: their union); with ids or domains, only those.", "examples": ["order", ["order", "customer"]]},
                   "ids": {"type": "array", "items": {"$ref": "#/$defs/entityId"}, "description": "Delete the entities of type with these ids."},
                   "domains": {"type": "array", "items": {"type": "string"}, "description": "Delete the entities in these domains and their subdomains (D and D.*, never Dx).", "examples": [["shop.orders.2025"]]},
                   "all": {"type": "boolean", "description": "Delete every entity, and the client state.", "default": false},
                   "dryRun": {"type": "boolean", "description": "Dry run: delete nothing. The result counts what would be deleted (wouldDelete) and lists the first 100 (keys).", "default": false}}},
      "result": {"type": "object", "required": ["deleted"], "additionalProperties": false,
                 "properties": {"deleted": {"type": "integer", "description": "How many entities were deleted; 0 for a dry run."},
                                "dryRun": {"const": true, "description": "Present for a dry run: nothing was deleted."},
                                "wouldDelete": {"type": "integer", "description": "A dry run: how many entities the same request would delete."},
                                "keys": {"type": "array", "maxItems": 100, "description": "A dry run: the first of the entities it would delete (for ids, in the order asked; else by type, then id).",
                                         "items": {"type": "object", "required": ["type", "id"], "additionalProperties": false, "properties": {"type": {"type": "string"}, "id": {"type": "string"}}}}}}
    },
    "donate": {"description": "Records an interaction with an entity, like an intent donation; feeds suggestions.",
      "params": {"type": "object", "required": ["type", "id"], "additionalProperties": false,
                 "properties": {
                   "type": {"$ref": "#/$defs/typeName", "description": "The type of the entity the user interacted with."},
                   "id": {"$ref": "#/$defs/entityId", "description": "Its id."}}},
      "result": {"type": "object", "additionalProperties": false, "properties": {"counted": {"type": "boolean"}}}
    },
    "batch.begin": {"description": "Starts a batch: the changes until batch.end apply atomically with the new client state. Over serve the result has the batch's id, which the client's later requests of the batch send in the Entityidx-Batch header.", "params": {"$ref": "#/$defs/empty"},
      "result": {"type": "object", "additionalProperties": false, "properties": {"batch": {"type": "string", "description": "serve only: the batch's id."}}}},
    "batch.end": {"description": "Applies the batch with the new client state; a mismatched expectedClientState applies nothing.",
      "params": {"type": "object", "required": ["clientState"], "additionalProperties": false,
                 "properties": {
                   "clientState": {"type": "string", "description": "The new client state, saved with the batch's changes."},
                   "expectedClientState": {"type": ["string", "null"], "description": "Apply the batch only when the stored client state is this one (null: none yet); else mismatched_client_state and nothing is applied."}}},
      "result": {"$ref": "#/$defs/empty"}
    },
    "batch.abort": {"description": "Rolls the open batch back: nothing of it is applied and the client state is unchanged.", "params": {"$ref": "#/$defs/empty"}, "result": {"$ref": "#/$defs/empty"}},
    "state": {"description": "The client state stored by the last batch.",
      "params": {"$ref": "#/$defs/empty"},
      "result": {"type": "object", "required": ["clientState"], "additionalProperties": false, "properties": {"clientState": {"type": ["string", "null"]}}}
    },
    "reindex.request": {"description": "Records a request that the app push entities again (a type, ids, or everything).",
      "params": {"type": "object", "additionalProperties": false,
                 "properties": {
                   "type": {"$ref": "#/$defs/typeName", "description": "Ask for the entities of this type; left out (and no ids): everything."},
                   "ids": {"type": "array", "items": {"$ref": "#/$defs/entityId"}, "description": "Ask only for these ids (of type)."}}},
      "result": {"type": "object", "required": ["requestId"], "additionalProperties": false, "properties": {"requestId": {"type": "integer"}}}
    },
    "reindex.pending": {"description": "The reindex requests not yet acknowledged, with the ids not re-pushed since.",
      "params": {"$ref": "#/$defs/empty"},
      "result": {"type": "object", "required": ["requests"], "additionalProperties": false,
                 "properties": {"requests": {"type": "array", "items": {"type": "object", "required": ["requestId", "createdAt", "outstanding"], "additionalProperties": false,
                   "properties": {"requestId": {"type": "integer"}, "type": {"type": "string"}, "ids": {"type": "array", "items": {"type": "string"}},
                                  "createdAt": {"type": "string"},
                                  "outstanding": {"type": "array", "items": {"oneOf": [{"type": "string"},
                                    {"type": "object", "required": ["type", "id"], "additionalProperties": false, "properties": {"type": {"type": "string"}, "id": {"type": "string"}}}]}}}}}}}
    },
    "reindex.ack": {"description": "Acknowledges a reindex request.",
      "params": {"type": "object", "required": ["requestId"], "additionalProperties": false, "properties": {
                                                                                               "requestId": {"type": "integer", "description": "The id of the reindex request the app has served (from reindex.request or reindex.pending)."}}},
      "result": {"$ref": "#/$defs/empty"}
    },
    "stats": {"description": "Counts per type, hidden, expired and expiring entities, versions and sizes.",
      "params": {"$ref": "#/$defs/empty"},
      "result": {"type": "object", "required": ["entities", "hidden", "expired", "expiringSoon", "types", "reindexRequests", "databaseBytes", "schemaVersion", "textVersion", "sqliteVersion", "icuVersion"],
                 "properties": {"entities": {"type": "integer"}, "hidden": {"type": "integer"}, "expired": {"type": "integer"}, "expiringSoon": {"type": "integer"},
                                "types": {"type": "object", "additionalProperties": {"type": "object", "required": ["entities", "hidden", "expired", "expiringSoon"]}},
                                "reindexRequests": {"type": "integer"}, "donations": {"type": "integer"}, "clientState": {"type": ["string", "null"]},
                                "databaseBytes": {"type": "integer"}, "path": {"type": "string"}, "now": {"type": "string"},
                                "schemaVersion": {"type": "integer"}, "textVersion": {"type": "integer"}, "sqliteVersion": {"type": "string"}, "icuVersion": {"type": "string"}}}
    },
    "declare": {"description": "Declares property types for an entity type (how values compare and sort), and how its text matches other forms of its words (stemming) or scripts (transliterate); the type's entities are indexed again.",
      "params": {"type": "object", "required": ["type"], "additionalProperties": false,
                 "properties": {
                   "type": {"$ref": "#/$defs/typeName", "description": "The entity type whose properties are declared."},
                   "properties": {"type": "array", "items": {"type": "object", "required": ["name", "kind"], "additionalProperties": false, "properties": {"name": {"type": "string", "minLength": 1, "description": "The property's name."}, "kind": {"enum": ["string", "number", "integer", "boolean", "date", "strings"], "description": "How its values compare and sort."}, "sortable": {"type": "boolean", "description": "Whether it may be a sort key.", "default": true}, "indexingKey": {"type": "string", "pattern": "^[A-Za-z0-9_]+$", "description": "A Spotlight attribute the property stands for (its search weight), such as displayName or title."}}}, "description": "The declarations: a name, a kind, whether it sorts (default true) and an optional indexingKey (displayName, title, … weigh like the title). Required unless stemming or transliterate is given."},
                   "stemming": {"enum": ["none", "english"], "description": "english: English inflections also match; none: as written. With english the type's text also matches regular English inflections (candies and candy, boxes and box, running and run; Porter2 rules); none is the default. Left out: as it was."},
                   "transliterate": {"enum": ["none", "latin"], "description": "latin: other scripts also match in Latin; none: as written. Words in Cyrillic, Greek, Arabic, Hebrew and other scripts (not Han, kana or Hangul) by ICU's Any-Latin; Latin-ASCII (and Russian-Latin/BGN for Cyrillic): smirnov finds Смирнов; Japanese in kanji or katakana by its readings (MeCab): まっちゃ and matcha find 抹茶ラテ; ranked after the words as written. The default is none; left out: as it was."}}},
      "result": {"type": "object", "required": ["declared"], "additionalProperties": false, "properties": {"declared": {"type": "integer"}}}
    },
    "declarations": {"description": "The declared property types of every entity type, and the types whose text is stemmed or transliterated.",
      "params": {"$ref": "#/$defs/empty"},
      "result": {"type": "object", "required": ["types"], "additionalProperties": false, "properties": {"types": {"type": "object"}, "stemming": {"type": "object", "additionalProperties": {"enum": ["english"]}, "description": "Each stemmed type and its stemming (absent when no type is stemmed)."}, "transliterate": {"type": "object", "additionalProperties": {"enum": ["latin"]}, "description": "Each transliterated type and its target script (absent when no type is transliterated)."}}}
    },
    "lint": {"description": "Checks records before they are pushed, or the whole index, for what keeps entities from Siri, Shortcuts and Spotlight. Records are checked against themselves and against the index as it would be after the push; reads only. A record that is not valid is an invalid-record finding. Findings come by code, then records of the input by position, then indexed entities by type and id.",
      "params": {"type": "object", "additionalProperties": false, "properties": {
                                                                    "records": {"type": "array", "description": "The records to check. As they would be pushed; left out: the whole index is checked."},
                                                                    "within": {"type": "integer", "minimum": 0, "maximum": 3650, "description": "will-expire reports entities that expire within this many days.", "default": 7},
                                                                    "limit": {"type": "integer", "minimum": 0, "maximum": 1000000, "description": "The most findings listed. The first in the report's order are listed; the others are counted in counts, errors and warnings, and by code in unlisted. Left out: every finding is listed."}}},
      "result": {"type": "object", "required": ["findings", "counts", "errors", "warnings", "records", "indexed", "withinDays"], "additionalProperties": false, "properties": {
        "findings": {"type": "array", "items": {"type": "object", "required": ["code", "severity", "record", "message"], "additionalProperties": false, "properties": {
          "code": {"enum": ["invalid-record", "duplicate-key", "id-changed", "type-renamed", "will-expire", "duplicate-content", "too-large", "weak-display", "unreachable", "broken-link", "domain-overlap", "mixed-kinds"]},
          "severity": {"enum": ["error", "warning"]},
          "record": {"type": "object", "additionalProperties": false, "properties": {"position": {"type": "integer"}, "line": {"type": "integer"}, "indexed": {"const": true}, "type": {"type": "string"}, "id": {"type": "string"}}},
          "message": {"type": "string"},
          "field": {"type": "string", "description": "the field of the record at fault, when it is one (invalid-record; broken-link: related[i], 0-based)"},
          "others": {"type": "array", "items": {"type": "object", "required": ["type", "id"], "additionalProperties": false, "properties": {"type": {"type": "string"}, "id": {"type": "string"}}}},
          "first": {"type": "object", "required": ["position"], "additionalProperties": false, "description": "duplicate-key: the first record of the input with the same type and id", "properties": {"position": {"type": "integer"}, "line": {"type": "integer"}, "type": {"type": "string"}, "id": {"type": "string"}}}}}},
        "counts": {"type": "object", "additionalProperties": false, "properties": {"invalid-record": {"type": "integer"}, "duplicate-key": {"type": "integer"}, "id-changed": {"type": "integer"}, "type-renamed": {"type": "integer"}, "will-expire": {"type": "integer"}, "duplicate-content": {"type": "integer"}, "too-large": {"type": "integer"}, "weak-display": {"type": "integer"}, "unreachable": {"type": "integer"}, "broken-link": {"type": "integer"}, "domain-overlap": {"type": "integer"}, "mixed-kinds": {"type": "integer"}}},
        "errors": {"type": "integer"}, "warnings": {"type": "integer"}, "records": {"type": "integer"}, "indexed": {"type": "integer"}, "withinDays": {"type": "integer"},
        "unlisted": {"type": "object", "additionalProperties": {"type": "integer"}, "description": "findings counted (in counts, errors and warnings) but not listed, by code: past the first 1000 invalid-record findings and the first 1000 duplicate-key records of the input, and past the request's limit; present only when there are some"}}}
    },
    "drill": {"description": "A reindex drill: compares what the index holds with the records the app's reindex pushes back. As if the system had lost its index; reads only. A bad record is an invalid_record error naming every bad record.",
      "params": {"type": "object", "required": ["records"], "additionalProperties": false, "properties": {
                                                                                             "records": {"type": "array", "items": {"$ref": "#/$defs/record"}, "description": "The records pushed back. What the app's reindex pushes, to compare with what the index holds."},
                                                                                             "type": {"$ref": "#/$defs/typeName", "description": "Only entities of this type, on both sides."}}},
      "result": {"type": "object", "required": ["indexed", "pushed", "restored", "missing", "changed", "new", "expired", "complete"], "additionalProperties": false, "properties": {
        "indexed": {"type": "integer"}, "pushed": {"type": "integer"}, "restored": {"type": "integer"},
        "missing": {"type": "array", "items": {"type": "object", "required": ["type", "id"], "additionalProperties": false, "properties": {"type": {"type": "string"}, "id": {"type": "string"}}}},
        "changed": {"type": "array", "items": {"type": "object", "required": ["type", "id", "position", "fields"], "additionalProperties": false, "properties": {"type": {"type": "string"}, "id": {"type": "string"}, "position": {"type": "integer"}, "line": {"type": "integer"}, "fields": {"type": "array", "items": {"type": "string"}}}}},
        "new": {"type": "array", "items": {"type": "object", "required": ["type", "id", "position"], "additionalProperties": false, "properties": {"type": {"type": "string"}, "id": {"type": "string"}, "position": {"type": "integer"}, "line": {"type": "integer"}}}},
        "expired": {"type": "array", "items": {"type": "object", "required": ["type", "id", "position"], "additionalProperties": false, "properties": {"type": {"type": "string"}, "id": {"type": "string"}, "position": {"type": "integer"}, "line": {"type": "integer"}}}},
        "complete": {"type": "boolean"}}}
    },
    "rpc.discover": {"description": "The OpenRPC document of this API (schema/openrpc.json).",
      "params": {"$ref": "#/$defs/empty"},
      "result": {"type": "object", "required": ["openrpc", "info", "methods"], "properties": {"openrpc": {"type": "string"}, "info": {"type": "object"}, "methods": {"type": "array"}}}
    },
    "spotlight": {
      "description": "A Core Spotlight query string (CSSearchQuery). An invalid query is error -32602 with data.code invalid_query and data.character. With fetchAttributes, each entity has type, id and only those attributes (under the names asked for).",
      "params": {"type": "object", "required": ["query"], "additionalProperties": false,
                 "properties": {
                   "query": {"type": "string", "description": "A Core Spotlight query string (CSSearchQuery). Attribute comparisons joined by && and ||, strings with * wildcards and c/d/w modifiers.", "examples": ["title == \"*mug*\"c || price < 10"]},
                   "type": {"$ref": "#/$defs/typeNames", "description": "Only entities of this type, or of these types (an array: their union).", "examples": ["product", ["order", "product"]]},
                   "limit": {"$ref": "#/$defs/limit", "description": "The most entities to return.", "default": 100},
                   "fetchAttributes": {"type": "array", "items": {"type": "string", "minLength": 1}, "description": "Only these attributes of each entity, besides type and id. As CSSearchQueryContext.fetchAttributes; left out: whole entities. Not with fields.", "examples": [["title", "price"]]},
                   "fields": {"$ref": "#/$defs/fields"}}},
      "result": {"type": "object", "required": ["entities"], "additionalProperties": false,
                 "properties": {"entities": {"type": "array", "items": {"anyOf": [
                   {"$ref": "#/$defs/entity"},
                   {"type": "object", "required": ["type", "id"], "properties": {"type": {"$ref": "#/$defs/typeName"}, "id": {"type": "string"}}}]}}}}
    },
    "userQuery": {
      "description": "A user's typed query (CSUserQuery): search results and suggestions. Items are search results for the text as typed (by default matching frequency: fewer terms when fewer than maxItems match them all), suggestions complete the whole typed string from matching titles, synonyms and keywords; matchedRanges are UTF-16 offsets.",
      "params": {"type": "object", "required": ["query"], "additionalProperties": false,
                 "properties": {
                   "query": {"type": "string", "description": "The text as the user typed it (CSUserQuery).", "examples": ["wid"]},
                   "maxItems": {"$ref": "#/$defs/limit", "description": "The most items (search results) to return.", "default": 20},
                   "maxSuggestions": {"type": "integer", "minimum": 0, "maximum": 100, "description": "The most suggestions (completions of the typed text) to return.", "default": 5},
                   "fields": {"$ref": "#/$defs/fields"},
                   "matching": {"$ref": "#/$defs/matching", "default": "frequency"}}},
      "result": {"type": "object", "required": ["items", "suggestions"], "additionalProperties": false,
                 "properties": {"items": {"type": "array", "items": {"$ref": "#/$defs/resultEntity"}},
                                "suggestions": {"type": "array", "items": {"type": "object", "required": ["text", "matchedRanges"], "additionalProperties": false,
                                  "properties": {"text": {"type": "string"},
                                                 "matchedRanges": {"type": "array", "items": {"type": "object", "required": ["start", "end"], "additionalProperties": false,
                                                   "properties": {"start": {"type": "integer", "minimum": 0}, "end": {"type": "integer", "minimum": 0}}}}}}}}}
    },
    "test": {
      "description": "Checks what searches must find, as `entityidx test` checks an expectations file; reads only. Each case is one read request (search, suggest, spotlight, userQuery, query, all, get, related or complete: its params under the method's name) and what its answer must hold. The result is the JSON report of `entityidx test --format json`, its cases without file and line. A case wrong as written (an unknown method or key, params the method refuses, a malformed expectation) is an invalid-params error naming every such case (cases[i] and its name) and the field, and nothing runs; a request the engine refuses while running (a Spotlight query that does not parse) is a wrong case of the report. Cases run within the request's own bounds (serve's time budget), without a time bound of their own.",
      "params": {"type": "object", "required": ["cases"], "additionalProperties": false,
                 "properties": {
                   "cases": {"type": "array", "description": "The cases of an expectations file: name, one request (METHOD: params), optional now, expect. As expectations.schema.json describes them; entities are written \"type/id\", the results of complete are words.",
                             "items": {"type": "object", "required": ["name", "expect"], "properties": {
                               "name": {"type": "string", "minLength": 1, "description": "What the case checks."},
                               "now": {"type": "string", "description": "Its clock, ISO-8601."},
                               "expect": {"type": "object", "minProperties": 1, "description": "Any of top, contains, excludes, rankAtMost, count, total, empty."}}},
                             "examples": [[{"name": "1042 first", "search": {"query": "1042"}, "expect": {"top": ["order/1042"], "rankAtMost": {"product/p6": 3}}}]]},
                   "now": {"type": "string", "description": "The clock of the cases without their own, ISO-8601. Left out: the request's clock (--now, else the wall clock).", "examples": ["2026-03-02T09:00:00Z"]}}},
      "result": {"type": "object", "required": ["passed", "failed", "wrong", "cases"], "additionalProperties": false,
                 "properties": {
                   "passed": {"type": "integer", "minimum": 0},
                   "failed": {"type": "integer", "minimum": 0},
                   "wrong": {"type": "integer", "minimum": 0, "description": "Cases whose request the engine refused while running (invalid params or query)."},
                   "cases": {"type": "array", "items": {"type": "object", "required": ["index", "name", "method", "status", "got", "failures", "seconds"], "additionalProperties": false,
                     "properties": {
                       "index": {"type": "integer", "minimum": 0, "description": "The case's 0-based position in cases."},
                       "name": {"type": "string"},
                       "method": {"type": "string"},
                       "status": {"enum": ["passed", "failed", "wrong"]},
                       "got": {"type": "array", "items": {"type": "string"}, "description": "The results in order, as \"type/id\" (words for complete)."},
                       "total": {"type": "integer", "minimum": 0, "description": "The search's total, when the result has one."},
                       "failures": {"type": "array", "items": {"type": "object", "required": ["expectation", "message"], "additionalProperties": false,
                         "properties": {"expectation": {"type": "string", "description": "top, contains, excludes, rankAtMost, count, total or empty; request when the request failed."}, "message": {"type": "string"}}}},
                       "tiers": {"type": "object", "description": "For a failed search or user query: each result's ranking tiers (as search's explain), by \"type/id\".", "additionalProperties": {"type": "object", "additionalProperties": {"type": "string"}}},
                       "error": {"$ref": "#/$defs/error"},
                       "seconds": {"type": "number", "minimum": 0}}}}}}
    }
  }
}
"""#

    static let recordText = #"""
{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://entityidx.dev/schema/record.schema.json",
  "title": "entityidx entity record",
  "description": "One entity pushed by the web layer (contract §1). null for an optional field means the field is absent.",
  "type": "object",
  "required": ["type", "id", "title"],
  "additionalProperties": false,
  "properties": {
    "type": {"type": "string", "minLength": 1, "maxLength": 128, "pattern": "^[A-Za-z_][A-Za-z0-9_.-]*$"},
    "id": {"oneOf": [{"type": "string", "minLength": 1, "maxLength": 4096}, {"type": "integer"}]},
    "title": {"type": "string", "minLength": 1, "pattern": "\\S"},
    "subtitle": {"type": ["string", "null"]},
    "synonyms": {"type": ["array", "null"], "items": {"type": "string"}},
    "keywords": {"type": ["array", "null"], "items": {"type": "string"}},
    "description": {"type": ["string", "null"]},
    "properties": {
      "type": ["object", "null"],
      "maxProperties": 10000,
      "additionalProperties": {
        "anyOf": [
          {"type": ["string", "number", "boolean", "null"]},
          {"type": "array", "items": {"type": ["string", "number"]}}
        ]
      }
    },
    "domain": {"type": ["string", "null"], "pattern": "^[^.]+(\\.[^.]+)*$"},
    "related": {
      "type": ["array", "null"],
      "items": {
        "type": "object",
        "required": ["type", "id"],
        "additionalProperties": false,
        "properties": {
          "type": {"type": "string", "minLength": 1, "maxLength": 128, "pattern": "^[A-Za-z_][A-Za-z0-9_.-]*$"},
          "id": {"oneOf": [{"type": "string", "minLength": 1, "maxLength": 4096}, {"type": "integer"}]}
        }
      }
    },
    "rankingHint": {"type": ["number", "null"], "minimum": 0, "maximum": 100},
    "priority": {"type": ["integer", "null"]},
    "lastUsedAt": {"type": ["string", "null"], "format": "date-time", "pattern": "^\\d{4}-\\d{2}-\\d{2}[Tt ]\\d{2}:\\d{2}(:\\d{2}([.,]\\d+)?)?([Zz]|[+-]\\d{2}:?\\d{2})$"},
    "expiresAt": {"type": ["string", "null"], "format": "date-time", "pattern": "^\\d{4}-\\d{2}-\\d{2}[Tt ]\\d{2}:\\d{2}(:\\d{2}([.,]\\d+)?)?([Zz]|[+-]\\d{2}:?\\d{2})$"},
    "hidden": {"type": ["boolean", "null"]},
    "url": {"type": ["string", "null"]},
    "image": {"type": ["string", "null"]}
  }
}
"""#
}
