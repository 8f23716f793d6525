"""tau2's mock domain: tasks and users for the agent, a notification inbox for the user."""
from __future__ import annotations

from typing import Any

from .toolkit import Model, Toolkit, tool

TASK_STATUSES = ("pending", "completed")


def mock_tables(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """db.json's tables as tau2's model holds them (a task's description null when unset)."""
    tasks = {key: {"task_id": task["task_id"], "title": task["title"], "description": task.get("description"),
                   "status": task["status"]} for key, task in data.get("tasks", {}).items()}
    return {"tasks": tasks, "users": dict(data.get("users", {}))}


def mock_user_tables(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """user_db.json's notifications, each with its status (unread when unset) and task (null when unset)."""
    return {"notifications": {key: _notification(n["notification_id"], n["message"], n.get("task_id"),
                                                 n.get("status", "unread"))
                              for key, n in data.get("notifications", {}).items()}}


def _notification(notification_id: str, message: str, task_id: str | None, status: str) -> dict[str, Any]:
    return {"notification_id": notification_id, "message": message, "status": status, "task_id": task_id}


def _text(model: str, **fields: Any) -> None:
    wrong = [name for name, value in fields.items() if not isinstance(value, str)]
    if wrong:
        raise ValueError(f"{len(wrong)} validation error{'s' if len(wrong) > 1 else ''} for {model}\n"
                         + "\n".join(f"{name}\n  Input should be a valid string" for name in wrong))


class MockTools(Toolkit):
    """The mock agent's tools (tau2's MockTools)."""

    @tool(mutates=True)
    def create_task(self, user_id: str, title: str, description: str = None) -> Model:  # type: ignore[assignment]
        if user_id not in self.db.tables["users"]:
            raise ValueError(f"User {user_id} not found")
        task_id = f"task_{len(self.db.tables['tasks']) + 1}"
        _text("Task", title=title, **({} if description is None else {"description": description}))
        task = {"task_id": task_id, "title": title, "description": description, "status": "pending"}
        self.db.insert("tasks", task_id, task)
        self.db.writable("users", user_id)["tasks"].append(task_id)
        return Model(task)

    @tool(mutates=False)
    def get_users(self) -> list[Model]:
        return [Model(user) for user in self.db.tables["users"].values()]

    @tool(mutates=True)
    def update_task_status(self, task_id: str, status: str) -> Model:
        if task_id not in self.db.tables["tasks"]:
            raise ValueError(f"Task {task_id} not found")
        task = self.db.writable("tasks", task_id)
        task["status"] = status
        return Model(task)

    def assert_number_of_tasks(self, user_id: str, expected_number: int) -> bool:
        if user_id not in self.db.tables["users"]:
            raise ValueError(f"User {user_id} not found")
        return len(self.db.tables["users"][user_id]["tasks"]) == expected_number

    def assert_task_status(self, task_id: str, expected_status: str) -> bool:
        if task_id not in self.db.tables["tasks"]:
            raise ValueError(f"Task {task_id} not found")
        return self.db.tables["tasks"][task_id]["status"] == expected_status

    @tool(mutates=False)
    def transfer_to_human_agents(self, summary: str) -> str:
        return "Transfer successful"


class MockUserTools(Toolkit):
    """The mock user's tools (tau2's MockUserTools): an inbox to check and dismiss from."""

    @tool(mutates=False)
    def check_notifications(self) -> list[Model]:
        return [Model(notification) for notification in self.db.tables["notifications"].values()]

    @tool(mutates=True)
    def dismiss_notification(self, notification_id: str) -> str:
        if notification_id not in self.db.tables["notifications"]:
            raise ValueError(f"Notification {notification_id} not found")
        self.db.writable("notifications", notification_id)["status"] = "read"
        return f"Notification {notification_id} dismissed"

    def add_notification(self, notification_id: str, message: str, task_id: str | None = None) -> Model:
        notification = _notification(notification_id, message, task_id, "unread")
        self.db.insert("notifications", notification_id, notification)
        return Model(notification)

    def assert_notification_status(self, notification_id: str, expected_status: str) -> bool:
        if notification_id not in self.db.tables["notifications"]:
            raise ValueError(f"Notification {notification_id} not found")
        return self.db.tables["notifications"][notification_id]["status"] == expected_status
