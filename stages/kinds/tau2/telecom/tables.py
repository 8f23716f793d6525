"""Telecom's db.toml and user_db.toml read as tau2's data models hold them: every field present (its default where the
file leaves it out), numbers of float fields as floats, dates and times as tau2 writes them in a tool's answer."""
from __future__ import annotations

import datetime
from typing import Any

Tables = dict[str, dict[str, Any]]
FLOAT, DATE, DATETIME = "float", "date", "datetime"
REQUIRED = object()

# field → (default, type) per record, in tau2's field order; REQUIRED: the file must give it
ADDRESS = {"street": (REQUIRED, None), "city": (REQUIRED, None), "state": (REQUIRED, None),
           "zip_code": (REQUIRED, None)}
PAYMENT_METHOD = {"method_type": (REQUIRED, None), "account_number_last_4": (REQUIRED, None),
                  "expiration_date": (REQUIRED, None)}
PLAN = {"plan_id": (REQUIRED, None), "name": (REQUIRED, None), "data_limit_gb": (REQUIRED, FLOAT),
        "price_per_month": (REQUIRED, FLOAT), "data_refueling_price_per_gb": (REQUIRED, FLOAT)}
DEVICE = {"device_id": (REQUIRED, None), "device_type": (REQUIRED, None), "model": (REQUIRED, None),
          "imei": (None, None), "is_esim_capable": (REQUIRED, None), "activated": (False, None),
          "activation_date": (None, DATETIME), "last_esim_transfer_date": (None, DATETIME)}
LINE = {"line_id": (REQUIRED, None), "phone_number": (REQUIRED, None), "status": ("Pending Activation", None),
        "plan_id": (REQUIRED, None), "device_id": (None, None), "data_used_gb": (0.0, FLOAT),
        "data_refueling_gb": (0.0, FLOAT), "roaming_enabled": (False, None), "contract_end_date": (None, DATE),
        "last_plan_change_date": (None, DATE), "last_sim_replacement_date": (None, DATE),
        "suspension_start_date": (None, DATE)}
LINE_ITEM = {"description": (REQUIRED, None), "amount": (REQUIRED, FLOAT), "date": (REQUIRED, DATE),
             "item_type": (REQUIRED, None)}
BILL = {"bill_id": (REQUIRED, None), "customer_id": (REQUIRED, None), "period_start": (REQUIRED, DATE),
        "period_end": (REQUIRED, DATE), "issue_date": (REQUIRED, DATE), "total_due": (REQUIRED, FLOAT),
        "due_date": (REQUIRED, DATE), "line_items": ([], LINE_ITEM), "status": ("Draft", None)}
CUSTOMER = {"customer_id": (REQUIRED, None), "full_name": (REQUIRED, None), "date_of_birth": (REQUIRED, None),
            "email": (REQUIRED, None), "phone_number": (REQUIRED, None), "address": (REQUIRED, ADDRESS),
            "account_status": ("Pending Verification", None), "payment_methods": ([], PAYMENT_METHOD),
            "line_ids": ([], None), "bill_ids": ([], None),
            "created_at": ("2025-01-01", DATETIME),  # tau2's default is a date, written as one
            "last_extension_date": (None, DATE), "goodwill_credit_used_this_year": (0.0, FLOAT)}
AGENT_TABLES = {"plans": ("plan_id", PLAN), "customers": ("customer_id", CUSTOMER), "lines": ("line_id", LINE),
                "bills": ("bill_id", BILL), "devices": ("device_id", DEVICE)}

APN = {"apn_name": ("internet", None), "reset_at_reboot": (False, None), "mms_apn": ("mms", None),
       "mmsc_url": ("http://mms.carrier.com/mms/wapenc", None), "mms_proxy": (None, None), "mms_port": (None, None)}
APN_DEFAULTS = {name: default for name, (default, _) in APN.items()}  # what a reset APN holds
PERMISSIONS = {"sms": (False, None), "storage": (False, None), "phone": (False, None), "network": (False, None)}
APPS = {"messaging": {"app_name": "messaging", "permissions": {"sms": True, "storage": True, "phone": True,
                                                               "network": False}},
        "browser": {"app_name": "browser", "permissions": {"sms": False, "storage": True, "phone": False,
                                                           "network": True}}}
DEVICE_STATE = {"sim_card_status": ("active", None), "sim_card_missing": (False, None), "airplane_mode": (False, None),
                "network_signal_strength": ("good", None), "network_technology_connected": ("5G", None),
                "network_connection_status": ("connected", None), "battery_level": (80, None),
                "data_enabled": (True, None), "roaming_enabled": (False, None),
                "network_mode_preference": ("4g_5g_preferred", None),
                "active_apn_settings": (APN_DEFAULTS, APN),
                "wifi_enabled": (False, None), "wifi_connected": (False, None), "wifi_ssid": (None, None),
                "wifi_signal_strength": ("none", None), "wifi_calling_enabled": (False, None),
                "wifi_calling_mms_over_wifi": (False, None), "data_saver_mode": (False, None),
                "vpn_enabled_setting": (False, None), "vpn_connected": (False, None), "vpn_details": (None, None),
                "app_statuses": (APPS, None)}
SIGNALS = {"2G": "poor", "3G": "fair", "4G": "good", "5G": "excellent"}
SURROUNDINGS = {"name": (None, None), "phone_number": (None, None), "is_abroad": (False, None),
                "roaming_allowed": (False, None), "signal_strength": (SIGNALS, None),
                "mobile_data_usage_exceeded": (False, None), "line_active": (True, None),
                "payment_request": (None, None)}


def telecom_tables(data: dict[str, Any]) -> Tables:
    """db.toml's lists as tables keyed by each record's id (plans, customers, lines, bills, devices)."""
    tables: Tables = {}
    for name, (key, fields) in AGENT_TABLES.items():
        records = [record(raw, fields, f"{name}[{number}]") for number, raw in enumerate(data.get(name, []))]
        tables[name] = {item[key]: item for item in records}
    return tables


def telecom_user_tables(data: dict[str, Any]) -> Tables:
    """user_db.toml's device and surroundings, each a table whose keys are the model's fields."""
    device = record(data.get("device", {}), DEVICE_STATE, "device")
    device["app_statuses"] = {name: {"app_name": app["app_name"],
                                     "permissions": record(app.get("permissions", {}), PERMISSIONS, name)}
                              for name, app in device["app_statuses"].items()}
    return {"device": device, "surroundings": record(data.get("surroundings", {}), SURROUNDINGS, "surroundings")}


def record(raw: Any, fields: dict[str, tuple[Any, Any]], place: str) -> dict[str, Any]:
    """One record with every field of `fields`, a default as it is (ValueError naming the place when a field is missing
    or unknown)."""
    if not isinstance(raw, dict):
        raise ValueError(f"{place}: not a table")
    unknown = set(raw) - set(fields)
    if unknown:
        raise ValueError(f"{place}: unknown fields {', '.join(sorted(unknown))}")
    made = {}
    for name, (default, kind) in fields.items():
        if name not in raw and default is REQUIRED:
            raise ValueError(f"{place}: no {name}")
        made[name] = _typed(raw[name], kind, f"{place}.{name}") if name in raw else _copy(default)
    return made


def _typed(value: Any, kind: Any, place: str) -> Any:
    if value is None:
        return None
    if kind == FLOAT:
        return float(value)
    if kind == DATE:
        return str(value if isinstance(value, datetime.date) else datetime.date.fromisoformat(str(value)))
    if kind == DATETIME:
        return str(value if isinstance(value, datetime.datetime) else datetime.datetime.fromisoformat(str(value)))
    if isinstance(kind, dict):
        if isinstance(value, list):
            return [record(item, kind, f"{place}[{number}]") for number, item in enumerate(value)]
        return record(value, kind, place)
    return _copy(value)


def _copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _copy(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_copy(item) for item in value]
    return value
