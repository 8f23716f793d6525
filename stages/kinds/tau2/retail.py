"""tau2's retail domain: its tools over products, users and orders, each changing the database and failing with the
message tau2's tool gives."""
from __future__ import annotations

import json
from typing import Any

from .arithmetic import calculate as work_out
from .toolkit import Model, Toolkit, tool

ORDER_OPTIONAL = ("cancel_reason", "exchange_items", "exchange_new_items", "exchange_payment_method_id",
                  "exchange_price_difference", "return_items", "return_payment_method_id")
ADDRESS_FIELDS = ("address1", "address2", "city", "country", "state", "zip")  # the order tau2's model writes them


def retail_tables(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """db.json's tables as tau2's data model holds them: an order's unset fields as null, prices and amounts as
    floats."""
    for product in data["products"].values():
        for variant in product["variants"].values():
            variant["price"] = float(variant["price"])
    for user in data["users"].values():
        for method in user["payment_methods"].values():
            if "balance" in method:
                method["balance"] = float(method["balance"])
    for order in data["orders"].values():
        for name in ORDER_OPTIONAL:
            order.setdefault(name, None)
        for item in order["items"]:
            item["price"] = float(item["price"])
        for payment in order["payment_history"]:
            payment["amount"] = float(payment["amount"])
    return {name: data[name] for name in ("products", "users", "orders")}


def _address(**fields: Any) -> dict[str, Any]:
    """A UserAddress as tau2 builds it (every field text, else the validation error)."""
    wrong = [name for name in ADDRESS_FIELDS if not isinstance(fields[name], str)]
    if wrong:
        raise ValueError(f"{len(wrong)} validation error{'s' if len(wrong) > 1 else ''} for UserAddress\n"
                         + "\n".join(f"{name}\n  Input should be a valid string" for name in wrong))
    return {name: fields[name] for name in ADDRESS_FIELDS}


def _payment(kind: str, amount: float, method_id: str) -> dict[str, Any]:
    return {"transaction_type": kind, "amount": float(amount), "payment_method_id": method_id}


def _is_gift_card(method: dict[str, Any]) -> bool:
    return method["source"] == "gift_card"


class RetailTools(Toolkit):
    """The retail agent's tools (tau2's RetailTools, same names, arguments and failures)."""

    def _get_order(self, order_id: str) -> dict[str, Any]:
        if order_id not in self.db.tables["orders"]:
            raise ValueError("Order not found")
        return self.db.tables["orders"][order_id]

    def _order_to_change(self, order_id: str) -> dict[str, Any]:
        self._get_order(order_id)
        return self.db.writable("orders", order_id)

    def _get_user(self, user_id: str) -> dict[str, Any]:
        if user_id not in self.db.tables["users"]:
            raise ValueError("User not found")
        return self.db.tables["users"][user_id]

    def _get_product(self, product_id: str) -> dict[str, Any]:
        if product_id not in self.db.tables["products"]:
            raise ValueError("Product not found")
        return self.db.tables["products"][product_id]

    def _get_variant(self, product_id: str, variant_id: str) -> dict[str, Any]:
        product = self._get_product(product_id)
        if variant_id not in product["variants"]:
            raise ValueError("Variant not found")
        return product["variants"][variant_id]

    def _get_payment_method(self, user_id: str, method_id: str, change: bool = False) -> dict[str, Any]:
        user = self._get_user(user_id)
        if method_id not in user["payment_methods"]:
            raise ValueError("Payment method not found")
        if change:
            user = self.db.writable("users", user_id)
        return user["payment_methods"][method_id]

    @tool(mutates=False)
    def calculate(self, expression: str) -> str:
        return work_out(expression)

    @tool(mutates=True)
    def cancel_pending_order(self, order_id: str, reason: str) -> Model:
        order = self._get_order(order_id)
        if order["status"] != "pending":
            raise ValueError("Non-pending order cannot be cancelled")
        if reason not in {"no longer needed", "ordered by mistake"}:
            raise ValueError("Invalid reason")
        order = self._order_to_change(order_id)
        refunds = []
        for payment in order["payment_history"]:
            method_id = payment["payment_method_id"]
            refunds.append(_payment("refund", payment["amount"], method_id))
            user = self._get_user(order["user_id"])
            method = self._get_payment_method(user["user_id"], method_id)
            if _is_gift_card(method):
                method = self._get_payment_method(user["user_id"], method_id, change=True)
                method["balance"] = round(method["balance"] + payment["amount"], 2)
        order["status"] = "cancelled"
        order["cancel_reason"] = reason
        order["payment_history"].extend(refunds)
        return Model(order)

    def _price_difference(self, order: dict[str, Any], item_ids: list[str], new_item_ids: list[str], *,
                          missing: str, mismatch: str, distinct: bool = False) -> tuple[float, dict[str, Any] | None]:
        """(new items' price less the old ones', the last new variant) for swapping `item_ids` of `order`, checked in
        tau2's order; `missing` / `mismatch` are the two tools' own wordings, `distinct` refuses an item for itself."""
        all_item_ids = [item["item_id"] for item in order["items"]]
        for item_id in item_ids:
            if item_ids.count(item_id) > all_item_ids.count(item_id):
                raise ValueError(missing.format(item_id))
        if len(item_ids) != len(new_item_ids):
            raise ValueError(mismatch)
        diff_price, variant = 0, None
        for item_id, new_item_id in zip(item_ids, new_item_ids):
            if distinct and item_id == new_item_id:
                raise ValueError("The new item id should be different from the old item id")
            item = next((item for item in order["items"] if item["item_id"] == item_id), None)
            if item is None:
                raise ValueError(f"Item {item_id} not found")
            variant = self._get_variant(item["product_id"], new_item_id)
            if not variant["available"]:
                raise ValueError(f"New item {new_item_id} not found or available")
            diff_price += variant["price"] - item["price"]
        return diff_price, variant

    @tool(mutates=True)
    def exchange_delivered_order_items(self, order_id: str, item_ids: list[str], new_item_ids: list[str],
                                       payment_method_id: str) -> Model:
        order = self._get_order(order_id)
        if order["status"] != "delivered":
            raise ValueError("Non-delivered order cannot be exchanged")
        diff_price, _ = self._price_difference(order, item_ids, new_item_ids, missing="Number of {} not found.",
                                               mismatch="The number of items to be exchanged should match.")
        diff_price = round(diff_price, 2)
        method = self._get_payment_method(order["user_id"], payment_method_id)
        if _is_gift_card(method) and method["balance"] < diff_price:
            raise ValueError("Insufficient gift card balance to pay for the price difference")
        order = self._order_to_change(order_id)
        order["status"] = "exchange requested"
        order["exchange_items"] = sorted(item_ids)
        order["exchange_new_items"] = sorted(new_item_ids)
        order["exchange_payment_method_id"] = payment_method_id
        order["exchange_price_difference"] = diff_price
        return Model(order)

    @tool(mutates=False)
    def find_user_id_by_name_zip(self, first_name: str, last_name: str, zip: str) -> str:
        for user_id, user in self.db.tables["users"].items():
            if (user["name"]["first_name"].lower() == first_name.lower()
                    and user["name"]["last_name"].lower() == last_name.lower() and user["address"]["zip"] == zip):
                return user_id
        raise ValueError("User not found")

    @tool(mutates=False)
    def find_user_id_by_email(self, email: str) -> str:
        for user_id, user in self.db.tables["users"].items():
            if user["email"].lower() == email.lower():
                return user_id
        raise ValueError("User not found")

    @tool(mutates=False)
    def get_order_details(self, order_id: str) -> Model:
        return Model(self._get_order(order_id))

    @tool(mutates=False)
    def get_product_details(self, product_id: str) -> Model:
        return Model(self._get_product(product_id))

    @tool(mutates=False)
    def get_item_details(self, item_id: str) -> Model:
        for product in self.db.tables["products"].values():
            if item_id in product["variants"]:
                return Model(product["variants"][item_id])
        raise ValueError("Item not found")

    @tool(mutates=False)
    def get_user_details(self, user_id: str) -> Model:
        return Model(self._get_user(user_id))

    @tool(mutates=False)
    def list_all_product_types(self) -> str:
        names = {product["name"]: product["product_id"] for product in self.db.tables["products"].values()}
        return json.dumps(names, sort_keys=True)

    @tool(mutates=True)
    def modify_pending_order_address(self, order_id: str, address1: str, address2: str, city: str, state: str,
                                     country: str, zip: str) -> Model:
        order = self._get_order(order_id)
        if "pending" not in order["status"]:
            raise ValueError("Non-pending order cannot be modified")
        address = _address(address1=address1, address2=address2, city=city, state=state, country=country, zip=zip)
        order = self._order_to_change(order_id)
        order["address"] = address
        return Model(order)

    @tool(mutates=True)
    def modify_pending_order_items(self, order_id: str, item_ids: list[str], new_item_ids: list[str],
                                   payment_method_id: str) -> Model:
        order = self._get_order(order_id)
        if order["status"] != "pending":
            raise ValueError("Non-pending order cannot be modified")
        diff_price, variant = self._price_difference(order, item_ids, new_item_ids, missing="{} not found",
                                                     mismatch="The number of items to be exchanged should match",
                                                     distinct=True)
        method = self._get_payment_method(order["user_id"], payment_method_id)
        if _is_gift_card(method) and method["balance"] < diff_price:
            raise ValueError("Insufficient gift card balance to pay for the new item")
        order = self._order_to_change(order_id)
        order["payment_history"].append(_payment("payment" if diff_price > 0 else "refund", abs(diff_price),
                                                 payment_method_id))
        if _is_gift_card(method):
            method = self._get_payment_method(order["user_id"], payment_method_id, change=True)
            method["balance"] = round(method["balance"] - diff_price, 2)
        for item_id, new_item_id in zip(item_ids, new_item_ids):
            item = next((item for item in order["items"] if item["item_id"] == item_id), None)
            if item is None:
                raise ValueError(f"Item {item_id} not found")
            item["item_id"] = new_item_id  # tau2 gives every item the price and options of the last new item
            item["price"] = variant["price"]
            item["options"] = dict(variant["options"])
        order["status"] = "pending (item modified)"
        return Model(order)

    @tool(mutates=True)
    def modify_pending_order_payment(self, order_id: str, payment_method_id: str) -> Model:
        order = self._get_order(order_id)
        if "pending" not in order["status"]:
            raise ValueError("Non-pending order cannot be modified")
        method = self._get_payment_method(order["user_id"], payment_method_id)
        history = order["payment_history"]
        if len(history) != 1 or history[0]["transaction_type"] != "payment":
            raise ValueError("There should be exactly one payment for a pending order")
        if history[0]["payment_method_id"] == payment_method_id:
            raise ValueError("The new payment method should be different from the current one")
        amount = history[0]["amount"]
        if _is_gift_card(method) and method["balance"] < amount:
            raise ValueError("Insufficient gift card balance to pay for the order")
        order = self._order_to_change(order_id)
        old_method_id = order["payment_history"][0]["payment_method_id"]
        order["payment_history"].extend([_payment("payment", amount, payment_method_id),
                                         _payment("refund", amount, old_method_id)])
        if _is_gift_card(method):
            method = self._get_payment_method(order["user_id"], payment_method_id, change=True)
            method["balance"] = round(method["balance"] - amount, 2)
        old_method = self._get_payment_method(order["user_id"], old_method_id)
        if _is_gift_card(old_method):
            old_method = self._get_payment_method(order["user_id"], old_method_id, change=True)
            old_method["balance"] = round(old_method["balance"] + amount, 2)
        return Model(order)

    @tool(mutates=True)
    def modify_user_address(self, user_id: str, address1: str, address2: str, city: str, state: str,
                            country: str, zip: str) -> Model:
        self._get_user(user_id)
        address = _address(address1=address1, address2=address2, city=city, state=state, country=country, zip=zip)
        user = self.db.writable("users", user_id)
        user["address"] = address
        return Model(user)

    @tool(mutates=True)
    def return_delivered_order_items(self, order_id: str, item_ids: list[str], payment_method_id: str) -> Model:
        order = self._get_order(order_id)
        if order["status"] != "delivered":
            raise ValueError("Non-delivered order cannot be returned")
        user = self._get_user(order["user_id"])
        method = self._get_payment_method(user["user_id"], payment_method_id)
        if not _is_gift_card(method) and payment_method_id != order["payment_history"][0]["payment_method_id"]:
            raise ValueError("Payment method should be the original payment method")
        all_item_ids = [item["item_id"] for item in order["items"]]
        for item_id in item_ids:
            if item_ids.count(item_id) > all_item_ids.count(item_id):
                raise ValueError("Some item not found")
        order = self._order_to_change(order_id)
        order["status"] = "return requested"
        order["return_items"] = sorted(item_ids)
        order["return_payment_method_id"] = payment_method_id
        return Model(order)

    @tool(mutates=False)
    def transfer_to_human_agents(self, summary: str) -> str:
        return "Transfer successful"
