"""tau2's telecom agent tools: customers, lines, bills, plans and devices looked up and changed, each failing with
the message tau2's tool gives; the functions its tasks' initial states and assertions call beside them."""
from __future__ import annotations

import datetime
import uuid
from typing import Any

from ..toolkit import Model, Toolkit, tool

TODAY = datetime.date(2025, 2, 25)  # tau2's telecom "today"


def _next_month_first(day: datetime.date) -> datetime.date:
    return ((day.replace(day=1) + datetime.timedelta(days=32)).replace(day=1))


class TelecomTools(Toolkit):
    """The telecom agent's tools (tau2's TelecomTools: same names, arguments, answers and failures)."""

    def _find(self, table: str, key: str, what: str) -> dict[str, Any]:
        if key not in self.db.tables[table]:
            raise ValueError(f"{what} not found")
        return self.db.tables[table][key]

    def _line(self, line_id: str) -> dict[str, Any]:
        return self._find("lines", line_id, f"Line with ID {line_id}")

    def _plan(self, plan_id: str) -> dict[str, Any]:
        return self._find("plans", plan_id, f"Plan with ID {plan_id}")

    def _bill(self, bill_id: str) -> dict[str, Any]:
        return self._find("bills", bill_id, f"Bill with ID {bill_id}")

    def _customer(self, customer_id: str) -> dict[str, Any]:
        return self._find("customers", customer_id, f"Customer with ID {customer_id}")

    def line_by_phone(self, phone_number: str) -> dict[str, Any]:
        """The line with this number (ValueError as tau2's _get_line_by_phone)."""
        for line in self.db.tables["lines"].values():
            if line["phone_number"] == phone_number:
                return line
        raise ValueError(f"Line with phone number {phone_number} not found")

    def _target_line(self, customer_id: str, line_id: str) -> dict[str, Any]:
        """The customer's line, this database's own copy to change."""
        customer = self._customer(customer_id)
        if line_id not in customer["line_ids"]:
            raise ValueError(f"Line {line_id} not found for customer {customer_id}")
        self._line(line_id)
        return self.db.writable("lines", line_id)

    def bills_awaiting_payment(self, customer: dict[str, Any]) -> list[dict[str, Any]]:
        return [bill for bill in map(self._bill, customer["bill_ids"]) if bill["status"] == "Awaiting Payment"]

    def set_bill_paid(self, bill_id: str) -> None:
        self._bill(bill_id)
        self.db.writable("bills", bill_id)["status"] = "Paid"

    @tool(mutates=False)
    def get_customer_by_phone(self, phone_number: str) -> Model:
        for customer in self.db.tables["customers"].values():
            if customer["phone_number"] == phone_number:
                return Model(customer)
            for line_id in customer["line_ids"]:
                if self._line(line_id)["phone_number"] == phone_number:
                    return Model(customer)
        raise ValueError(f"Customer with phone number {phone_number} not found")

    @tool(mutates=False)
    def get_customer_by_id(self, customer_id: str) -> Model:
        return Model(self._customer(customer_id))

    @tool(mutates=False)
    def get_customer_by_name(self, full_name: str, dob: str) -> list[Model]:
        return [Model(customer) for customer in self.db.tables["customers"].values()
                if customer["full_name"].lower() == full_name.lower() and customer["date_of_birth"] == dob]

    @tool(mutates=False)
    def get_details_by_id(self, id: str) -> Model:  # noqa: A002 — tau2's argument name
        tables = {"L": self._line, "D": lambda key: self._find("devices", key, f"Device with ID {key}"),
                  "B": self._bill, "C": self._customer, "P": self._plan}
        for prefix, lookup in tables.items():
            if id.startswith(prefix):
                return Model(lookup(id))
        raise ValueError(f"Unknown ID format or type: {id}")

    @tool(mutates=True)
    def suspend_line(self, customer_id: str, line_id: str, reason: str) -> dict[str, Any]:
        line = self._target_line(customer_id, line_id)
        if line["status"] != "Active":
            raise ValueError("Line must be active to suspend")
        line["status"] = "Suspended"
        line["suspension_start_date"] = str(TODAY)
        return {"message": "Line suspended successfully. $5/month holding fee will apply.", "line": Model(line)}

    @tool(mutates=True)
    def resume_line(self, customer_id: str, line_id: str) -> dict[str, Any]:
        line = self._target_line(customer_id, line_id)
        if line["status"] not in ("Suspended", "Pending Activation"):
            raise ValueError("Line must be suspended to resume")
        line["status"] = "Active"
        line["suspension_start_date"] = None
        return {"message": "Line resumed successfully", "line": Model(line)}

    @tool(mutates=False)
    def get_bills_for_customer(self, customer_id: str, limit: int = 12) -> list[Model]:
        bills = [self._bill(bill_id) for bill_id in self._customer(customer_id)["bill_ids"]]
        return [Model(bill) for bill in sorted(bills, key=lambda bill: bill["issue_date"], reverse=True)[:limit]]

    @tool(mutates=True)
    def send_payment_request(self, customer_id: str, bill_id: str) -> str:
        customer = self._customer(customer_id)
        if self.bills_awaiting_payment(customer):
            raise ValueError("A bill is already awaiting payment for this customer")
        if bill_id not in customer["bill_ids"]:
            raise ValueError(f"Bill {bill_id} not found for customer {customer_id}")
        self._bill(bill_id)
        self.db.writable("bills", bill_id)["status"] = "Awaiting Payment"
        return f"Payment request sent to the customer for bill {bill_id}"

    def _charge(self, customer_id: str, amount: float, description: str) -> None:
        """A charge (or credit) on the customer's draft bill, a new draft for next month when there is none."""
        customer = self._customer(customer_id)
        draft = next((bill["bill_id"] for bill in map(self._bill, customer["bill_ids"]) if bill["status"] == "Draft"),
                     None)
        if draft is None:
            start = _next_month_first(TODAY)
            draft = f"B{uuid.uuid4().hex[:8]}"  # tau2 draws the id at random too
            self.db.insert("bills", draft, {
                "bill_id": draft, "customer_id": customer_id, "period_start": str(start),
                "period_end": str(_next_month_first(start) - datetime.timedelta(days=1)), "issue_date": str(start),
                "total_due": 0.0, "due_date": str(start + datetime.timedelta(days=14)), "line_items": [],
                "status": "Draft"})
            self.db.writable("customers", customer_id)["bill_ids"].append(draft)
        bill = self.db.writable("bills", draft)
        bill["line_items"].append({"description": description, "amount": float(amount), "date": str(TODAY),
                                   "item_type": "Credit" if amount < 0 else "Charge"})
        bill["total_due"] += amount

    @tool(mutates=False)
    def get_data_usage(self, customer_id: str, line_id: str) -> dict[str, Any]:
        line = self._target_line(customer_id, line_id)
        plan = self._plan(line["plan_id"])
        return {"line_id": line_id, "data_used_gb": line["data_used_gb"], "data_limit_gb": plan["data_limit_gb"],
                "data_refueling_gb": line["data_refueling_gb"],
                "cycle_end_date": str(_next_month_first(TODAY) - datetime.timedelta(days=1))}

    def set_data_usage(self, customer_id: str, line_id: str, data_used_gb: float) -> str:
        self._target_line(customer_id, line_id)["data_used_gb"] = data_used_gb
        return f"Data usage set to {data_used_gb} GB for line {line_id}"

    @tool(mutates=True)
    def enable_roaming(self, customer_id: str, line_id: str) -> str:
        line = self._target_line(customer_id, line_id)
        if line["roaming_enabled"]:
            return "Roaming was already enabled"
        line["roaming_enabled"] = True
        return "Roaming enabled successfully"

    @tool(mutates=True)
    def disable_roaming(self, customer_id: str, line_id: str) -> str:
        line = self._target_line(customer_id, line_id)
        if not line["roaming_enabled"]:
            return "Roaming was already disabled"
        line["roaming_enabled"] = False
        return "Roaming disabled successfully"

    @tool(mutates=False)
    def transfer_to_human_agents(self, summary: str) -> str:
        return "Transfer successful"

    @tool(mutates=True)
    def refuel_data(self, customer_id: str, line_id: str, gb_amount: float) -> dict[str, Any]:
        line = self._target_line(customer_id, line_id)
        if gb_amount <= 0:
            raise ValueError("Refuel amount must be positive")
        plan = self._plan(line["plan_id"])
        charge = gb_amount * plan["data_refueling_price_per_gb"]
        line["data_refueling_gb"] += gb_amount
        self._charge(customer_id, charge,
                     f"Data refueling: {gb_amount} GB at ${plan['data_refueling_price_per_gb']}/GB")
        return {"message": f"Successfully added {gb_amount} GB of data for line {line_id} for ${charge:.2f}",
                "new_data_refueling_gb": line["data_refueling_gb"], "charge": charge}

    def suspend_line_for_overdue_bill(self, customer_id: str, line_id: str, new_bill_id: str,
                                      contract_ended: bool) -> str:
        if self._line(line_id)["status"] != "Active":
            raise ValueError("Line must be active to suspend for unpaid bill")
        amount = self._plan(self._line(line_id)["plan_id"])["price_per_month"]
        if amount <= 0:
            raise ValueError("Amount must be positive for overdue bill")
        customer = self._customer(customer_id)
        if any(self._bill(bill_id)["status"] == "Overdue" for bill_id in customer["bill_ids"]):
            raise ValueError("Customer already has an overdue bill")
        last_month_end = TODAY.replace(day=1) - datetime.timedelta(days=1)
        last_month_start = last_month_end.replace(day=1)
        self.db.insert("bills", new_bill_id, {
            "bill_id": new_bill_id, "customer_id": customer_id, "period_start": str(last_month_start),
            "period_end": str(last_month_end), "issue_date": str(last_month_start), "total_due": 0.0 + amount,
            "due_date": str(last_month_start + datetime.timedelta(days=14)),
            "line_items": [{"description": f"Charge for line {line_id}", "amount": float(amount),
                            "date": str(TODAY), "item_type": "Charge" if amount > 0 else "Credit"}],
            "status": "Overdue"})
        self.db.writable("customers", customer_id)["bill_ids"].append(new_bill_id)
        line = self.db.writable("lines", line_id)
        line["status"] = "Suspended"
        line["suspension_start_date"] = str(TODAY)
        if contract_ended:
            line["contract_end_date"] = str(last_month_end)
        return f"Line {line_id} suspended for unpaid bill {new_bill_id}. Contract ended: {contract_ended}"

    def assert_data_refueling_amount(self, customer_id: str, line_id: str, expected_amount: float) -> bool:
        return abs(self._target_line(customer_id, line_id)["data_refueling_gb"] - expected_amount) < 1e-6

    def assert_line_status(self, customer_id: str, line_id: str, expected_status: str) -> bool:
        return self._target_line(customer_id, line_id)["status"] == expected_status

    def assert_overdue_bill_exists(self, customer_id: str, overdue_bill_id: str) -> bool:
        if overdue_bill_id not in self._customer(customer_id)["bill_ids"]:
            raise ValueError(f"Overdue bill {overdue_bill_id} not found")
        if self._bill(overdue_bill_id)["status"] != "Overdue":
            raise ValueError(f"Overdue bill {overdue_bill_id} is not overdue")
        return True

    def assert_no_overdue_bill(self, overdue_bill_id: str) -> bool:
        bill = self.db.tables["bills"].get(overdue_bill_id)
        return bill is None or bill["status"] == "Paid"
