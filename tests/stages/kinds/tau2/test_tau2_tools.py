"""The retail and mock tools answer and fail as tau2's: the same error text, the same database after the call, and
records written in tau2's field order (an order's unset fields as null)."""
import json

import pytest

from stages.kinds.tau2.domains import read_domain
from stages.kinds.tau2.environment import Environment
from tests.stages.kinds.tau2.trajectories import DOMAINS

pytestmark = pytest.mark.skipif(not DOMAINS.is_dir(), reason="the shared tau2 data is not here")


@pytest.fixture(scope="module")
def retail():
    return read_domain(DOMAINS / "retail")


def test_errors_are_returned_as_tau2_words_them(retail):
    env = Environment(retail)
    assert env.respond("get_order_details", "assistant", {"order_id": "#W0"}) == ("Error: Order not found", True)
    assert env.respond("no_such_tool", "assistant", {}) == ("Error: Tool 'no_such_tool' not found.", True)
    assert env.respond("get_order_details", "assistant", {}) == (
        "Error: RetailTools.get_order_details() missing 1 required positional argument: 'order_id'", True)
    assert env.respond("calculate", "assistant", {"expression": "2 + x"}) == (
        "Error: Invalid characters in expression", True)
    assert env.respond("calculate", "assistant", {"expression": "(1 + 2) * 3 / 4"}) == ("2.25", False)
    assert env.respond("calculate", "assistant", {"expression": "1 / 0"}) == ("Error: division by zero", True)
    assert env.respond("get_order_details", "user", {"order_id": "#W0"}) == ("Error: User tools not available", True)


def test_a_cancelled_order_refunds_a_gift_card_at_once_and_leaves_the_base_untouched(retail):
    order_id, order = next((key, o) for key, o in retail.tables["orders"].items() if o["status"] == "pending"
                           and o["payment_history"][0]["payment_method_id"].startswith("gift_card"))
    user, method = order["user_id"], order["payment_history"][0]["payment_method_id"]
    balance = retail.tables["users"][user]["payment_methods"][method]["balance"]
    env = Environment(retail)
    content, error = env.respond("cancel_pending_order", "assistant", {"order_id": order_id, "reason": "no longer needed"})
    answer = json.loads(content)
    assert not error and answer["status"] == "cancelled" and answer["cancel_reason"] == "no longer needed"
    assert list(answer)[:8] == ["order_id", "user_id", "address", "items", "status", "fulfillments",
                                "payment_history", "cancel_reason"]
    paid = order["payment_history"][0]["amount"]
    assert env.db.tables["users"][user]["payment_methods"][method]["balance"] == round(balance + paid, 2)
    assert retail.tables["orders"][order_id]["status"] == "pending"  # the pristine tables are never written
    assert sorted(env.db.differences(Environment(retail).db)) == [f"orders/{order_id}", f"users/{user}"]
    assert env.respond("cancel_pending_order", "assistant", {"order_id": order_id, "reason": "no longer needed"}) == (
        "Error: Non-pending order cannot be cancelled", True)


def test_modified_items_all_take_the_last_new_items_price_as_tau2s_tool_does(retail):
    order_id, order = next((key, o) for key, o in retail.tables["orders"].items() if o["status"] == "pending"
                           and len({i["product_id"] for i in o["items"]}) >= 2)
    swaps = []
    for item in order["items"][:2]:
        variants = retail.tables["products"][item["product_id"]]["variants"]
        other = next((v for k, v in variants.items() if k != item["item_id"] and v["available"]), None)
        if other is None:
            pytest.skip("no other available variant")
        swaps.append((item["item_id"], other))
    env = Environment(retail)
    method = order["payment_history"][0]["payment_method_id"]
    content, error = env.respond("modify_pending_order_items", "assistant", {
        "order_id": order_id, "item_ids": [s[0] for s in swaps], "new_item_ids": [s[1]["item_id"] for s in swaps],
        "payment_method_id": method})
    assert not error, content
    items = json.loads(content)["items"][:2]
    assert [i["price"] for i in items] == [swaps[-1][1]["price"]] * 2
    assert json.loads(content)["status"] == "pending (item modified)"


def test_mock_create_task_numbers_tasks_and_the_user_inbox_is_the_users():
    mock = read_domain(DOMAINS / "mock")
    env = Environment(mock)
    content, _ = env.respond("create_task", "assistant", {"user_id": "user_1", "title": "Meeting"})
    assert json.loads(content) == {"task_id": "task_2", "title": "Meeting", "description": None, "status": "pending"}
    assert env.respond("create_task", "assistant", {"user_id": "nobody", "title": "x"}) == (
        "Error: User nobody not found", True)
    assert env.respond("dismiss_notification", "user", {"notification_id": "notif_1"}) == (
        "Notification notif_1 dismissed", False)
    assert env.respond("dismiss_notification", "assistant", {"notification_id": "notif_1"})[1] is True
    assert env.user_db.tables["notifications"]["notif_1"]["status"] == "read"
