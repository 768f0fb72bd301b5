#!/usr/bin/env python3
"""Generates the sample data of a small multilingual shop app: customers, products and orders.

Deterministic (seeded): running it again writes the same files. Usage: python3 data/generate.py
Writes data/customers.ndjson (NDJSON), data/products.json and data/orders.json (JSON arrays).
"""
import json
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
rng = random.Random(1042)

CUSTOMERS = [
    ("Ada Lovelace", "London", "en"), ("Jürgen Groß", "Köln", "de"), ("Grete Müller", "Straßburg", "de"),
    ("François Dupont", "Paris", "fr"), ("Hélène Lefèvre", "Lyon", "fr"), ("Zoë Øster", "Ærøskøbing", "da"),
    ("Łukasz Żółć", "Łódź", "pl"), ("Sinéad O'Neil", "Dublin", "en"), ("山田太郎", "東京", "ja"),
    ("佐藤花子", "大阪", "ja"), ("王小明", "北京", "zh"), ("李华", "上海", "zh"), ("김민준", "서울", "ko"),
    ("Νίκος Παπαδόπουλος", "Αθήνα", "el"), ("Алексей Смирнов", "Москва", "ru"), ("José Núñez", "Málaga", "es"),
    ("İlkay Şahin", "İstanbul", "tr"), ("Mia Hoffmann", "München", "de"), ("Noah Williams", "Boston", "en"),
    ("Chloé Moreau", "Nantes", "fr"),
]

PRODUCTS = [
    ("Blue ceramic mug", "Kitchen", ["coffee", "tea"]), ("Crème brûlée set", "Kitchen", ["dessert", "ramekin"]),
    ("Café au lait bowl", "Kitchen", ["breakfast"]), ("Straßenkarte Köln", "Books", ["map", "city"]),
    ("Müsli-Schale aus Steingut", "Kitchen", ["bowl"]), ("Fidélité loyalty card", "Gifts", ["voucher"]),
    ("東京タワー模型", "Toys", ["model", "tokyo"]), ("抹茶セット", "Kitchen", ["matcha", "tea"]),
    ("绿茶礼盒", "Gifts", ["green tea"]), ("东京塔钥匙扣", "Gifts", ["keychain"]), ("서울 머그컵", "Kitchen", ["mug"]),
    ("Wool scarf, charcoal", "Fashion", ["winter"]), ("E-mail organizer notebook", "Office", ["planner"]),
    ("Chess set, walnut", "Games", ["board game"]), ("Jigsaw puzzle 1000 pieces", "Games", ["puzzle"]),
    ("Ελληνικό μέλι", "Food", ["honey"]), ("Шоколад горький", "Food", ["chocolate"]),
    ("Olive oil, extra virgin", "Food", ["oil"]), ("Widget pro", "Gadgets", ["gizmo"]),
    ("USB-C cable 2 m", "Gadgets", ["charger"]), ("Desk lamp Lamplight", "Office", ["light"]),
    ("Garden chair", "Garden", ["outdoor"]), ("Flore candle", "Home", ["scent"]), ("Łódź street poster", "Home", ["art"]),
    ("ภาษาไทย phrasebook", "Books", ["thai"]), ("Ærø sea salt", "Food", ["salt"]),
]

STATUSES = ["open", "paid", "Shipped", "delivered", "cancelled", "refunded"]


def iso(year, month, day, hour=10, minute=0):
    return f"{year:04d}-{month:02d}-{day:02d}T{hour:02d}:{minute:02d}:00Z"


def customers():
    out = []
    for i, (name, city, lang) in enumerate(CUSTOMERS, 1):
        out.append({
            "type": "customer", "id": f"c{i}", "title": name, "subtitle": city,
            "keywords": [lang], "domain": f"shop.customers.{lang}",
            "properties": {"city": city, "language": lang, "vip": i % 5 == 0},
            "rankingHint": 50 + (i % 3) * 10,
        })
    return out


def products():
    out = []
    for i, (name, section, keywords) in enumerate(PRODUCTS, 1):
        sku = f"SKU-{1000 + i * 7}-{'ABCDEFG'[i % 7]}"
        out.append({
            "type": "product", "id": f"p{i}", "title": name, "subtitle": section,
            "keywords": keywords, "synonyms": [sku],
            "description": f"{name} from the {section.lower()} section",
            "domain": f"shop.catalog.{section.lower()}",
            "properties": {"section": section, "price": round(rng.uniform(3, 120), 2), "sku": sku,
                           "tags": sorted(set(keywords + [section.lower()]))},
            "priority": 1 if section == "Gifts" else 0,
        })
    return out


def orders(prods):
    ids = list(range(1, 21)) + list(range(1000, 1300))
    out = []
    for n in ids:
        ci = rng.randrange(len(CUSTOMERS))
        name, city, _ = CUSTOMERS[ci]
        items = rng.sample(prods, rng.randint(1, 3))
        month, day = rng.randint(1, 12), rng.randint(1, 28)
        status = rng.choice(STATUSES)
        suffix = "-A" if n % 3 == 0 or n == 1042 else ""
        rec = {
            "type": "order", "id": n, "title": f"Order #{n}{suffix}",
            "subtitle": f"{name} · {len(items)} item{'s' if len(items) > 1 else ''}",
            "keywords": [status.lower()],
            "description": ", ".join(p["title"] for p in items),
            "domain": f"shop.orders.{2025 + (month > 6)}",
            "properties": {
                "status": status, "total": round(sum(p["properties"]["price"] for p in items), 2),
                "placedAt": iso(2025 + (month > 6), month, day, rng.randint(8, 20), rng.randint(0, 59)),
                "city": city, "items": [p["id"] for p in items],
            },
            "related": [{"type": "customer", "id": f"c{ci + 1}"}] + [{"type": "product", "id": p["id"]} for p in items],
            "rankingHint": rng.randint(0, 100),
        }
        if n % 17 == 0:
            rec["lastUsedAt"] = iso(2026, rng.randint(1, 11), rng.randint(1, 28))
        if n == 1013:
            rec["hidden"] = True
            rec["title"] = "Order #1013 (internal test order)"
        if n == 1014:
            rec["expiresAt"] = "2025-01-01T00:00:00Z"
            rec["title"] = "Order #1014 (expired)"
        out.append(rec)
    return out


def main():
    c, p = customers(), products()
    o = orders(p)
    with open(os.path.join(HERE, "customers.ndjson"), "w", encoding="utf-8") as f:
        for r in c:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    for name, records in (("products.json", p), ("orders.json", o)):
        with open(os.path.join(HERE, name), "w", encoding="utf-8") as f:
            json.dump(records, f, ensure_ascii=False, indent=1)
            f.write("\n")
    print(f"customers {len(c)}, products {len(p)}, orders {len(o)}")


if __name__ == "__main__":
    main()
