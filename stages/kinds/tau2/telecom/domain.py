"""Telecom as one domain: the agent's policy as tau2 composes it, and the phone kept in step with the agent's
database after every call (tau2's TelecomEnvironment.sync_tools)."""
from __future__ import annotations

from pathlib import Path

from .phone_tools import TelecomUserTools
from .tools import TelecomTools

POLICY_FILES = ("main_policy.md", "tech_support_manual.md")


def telecom_policy(folder: Path) -> str:
    """The main policy and the tech support manual, each in its tag, as tau2's telecom environment joins them."""
    main, manual = ((folder / name).read_text(encoding="utf-8") for name in POLICY_FILES)
    return (f"<main_policy>\n{main}\n</main_policy>\n"
            f"<tech_support_policy>\n{manual}\n</tech_support_policy>")


def sync_phone(tools: TelecomTools, phone: TelecomUserTools) -> None:
    """The phone's line, roaming, data allowance and payment request as the agent's database says (ValueError when
    the user's number has no line or the line's plan is not there, as tau2 says)."""
    number = phone.db.tables["surroundings"]["phone_number"]
    if number is None:
        return
    line = tools.line_by_phone(number)
    plans = tools.db.tables["plans"]
    if line["plan_id"] not in plans:
        raise ValueError(f"Plan with ID {line['plan_id']} not found")
    plan = plans[line["plan_id"]]
    phone.set_surroundings(line_active=line["status"] == "Active", roaming_allowed=bool(line["roaming_enabled"]),
                      mobile_data_usage_exceeded=line["data_used_gb"] >= plan["data_limit_gb"]
                      + line["data_refueling_gb"])
    request = phone.db.tables["surroundings"]["payment_request"]
    if request is not None and request["paid"]:
        tools.set_bill_paid(request["bill_id"])
        phone.set_surroundings(payment_request=None)
    if phone.db.tables["surroundings"]["payment_request"] is None:
        awaiting = tools.bills_awaiting_payment(tools.get_customer_by_phone(number).fields)
        if awaiting:
            phone.set_surroundings(payment_request={"bill_id": awaiting[0]["bill_id"],
                                               "amount_due": awaiting[0]["total_due"], "paid": False})
