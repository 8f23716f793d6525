"""The user's simulated phone as tau2's telecom user tools work it: the device's fields and the user's surroundings
read and written in the user database, the network searched again after a change, the status bar, mobile data,
speed test and MMS worked out from them; APN settings made from what the user gives, as tau2's model makes them."""
from __future__ import annotations

from typing import Any

from ..toolkit import Toolkit
from .tables import APN_DEFAULTS

NO_SIGNAL = "📵 No Signal"
SIGNAL_BARS = {"none": NO_SIGNAL, "poor": "📶¹ Poor", "fair": "📶² Fair", "good": "📶³ Good",
               "excellent": "📶⁴ Excellent"}
MODES = ("4g_5g_preferred", "4g_only", "3g_only", "2g_only")
MODE_TECHNOLOGY = {"4g_only": "4G", "3g_only": "3G", "2g_only": "2G"}
SPEEDS = {"2G": (0.1, 0.4), "3G": (1.0, 5.0), "4G": (10.0, 100.0), "5G": (50.0, 500.0), "none": (0.0, 0.0)}
SIGNAL_FACTOR = {"poor": 0.2, "fair": 0.5, "good": 0.8, "excellent": 1.0, "none": 0.0}
PYDANTIC = "2.14"  # the pydantic tau2 1.0.1 installs with, whose words a refused APN setting gets
SPEED_WORDS = ((1, "Very Poor"), (5, "Poor"), (25, "Fair"), (100, "Good"))
DEFAULT_VPN = {"server_address": "192.168.1.1", "protocol": "OpenVPN", "server_performance": "excellent"}


class Phone(Toolkit):
    """The device and surroundings tables of the user database, and what tau2's phone works out from them; the VPN
    a connection gets (poor once break_vpn ran: tau2 changes its default VPN in place, for its whole process — here
    for this environment)."""

    def __init__(self, db: Any) -> None:
        super().__init__(db)
        self.vpn_default = dict(DEFAULT_VPN)

    def _device(self, field: str) -> Any:
        return self.db.tables["device"][field]

    def _set(self, **fields: Any) -> None:
        for name, value in fields.items():
            self.db.insert("device", name, value)

    def _around(self, field: str) -> Any:
        return self.db.tables["surroundings"][field]

    def set_surroundings(self, **fields: Any) -> None:
        for name, value in fields.items():
            self.db.insert("surroundings", name, value)

    def _apn(self, attribute: str, writable: bool = False) -> dict[str, Any]:
        """The APN settings (this database's copy when `writable`); AttributeError as tau2 raises reading
        `attribute` of settings that are not a record (set_apn_settings given text keeps it)."""
        settings = self._device("active_apn_settings")
        if not isinstance(settings, dict):
            raise AttributeError(f"'{type(settings).__name__}' object has no attribute '{attribute}'")
        return self.db.writable("device", "active_apn_settings") if writable else settings

    def _no_service(self) -> None:
        self._set(network_connection_status="no_service", network_technology_connected="none",
                  network_signal_strength="none")

    def simulate_network_search(self) -> None:
        """Connect as the SIM, mode preference and surroundings' signal allow (tau2's simulate_network_search)."""
        if self._sim_status() == "active":
            signals = self._around("signal_strength")
            preference = self._device("network_mode_preference")
            technology = MODE_TECHNOLOGY.get(preference, "4G") if isinstance(preference, str) else "4G"
            if preference == "4g_5g_preferred" and signals.get("5G", "none") != "none":
                technology = "5G"
            self._set(network_connection_status="connected", network_technology_connected=technology,
                      network_signal_strength=signals.get(technology, "none"))
        else:
            self._no_service()
        if self._device("airplane_mode"):
            self._no_service()
        if self._apn("apn_name")["apn_name"] == "broken" or not self._around("line_active"):
            self._no_service()

    def _sim_status(self) -> str:
        return "missing" if self._device("sim_card_missing") else self._device("sim_card_status")

    def _status_bar(self) -> str:
        device = self.db.tables["device"]
        shown = []
        if device["airplane_mode"]:
            shown.append("✈️ Airplane Mode")
        else:
            shown.append(SIGNAL_BARS.get(device["network_signal_strength"], NO_SIGNAL))
            connected = device["network_technology_connected"] != "none"
            if connected:
                shown.append(device["network_technology_connected"])
            if device["data_enabled"] and connected:
                shown.append("📱 Data Enabled")
                if device["data_saver_mode"]:
                    shown.append("🔽 Data Saver")
            else:
                shown.append("📵 Data Disabled")
        if device["wifi_enabled"] and device["wifi_connected"]:
            shown.append(f"📡 Connected to {device['wifi_ssid']}" if device["wifi_ssid"] else "📡 Enabled")
        if device["vpn_connected"]:
            shown.append("🔒 VPN Connected")
        shown.append(f"🔋 {device['battery_level']}%")
        return " | ".join(shown)

    def _with_status_bar(self, text: str) -> str:
        return f"{text}\nStatus Bar: {self._status_bar()}"

    def _mobile_data_working(self) -> bool:
        device = self.db.tables["device"]
        if device["airplane_mode"] or device["network_signal_strength"] == "none":
            return False
        if device["network_connection_status"] == "no_service":
            return False
        if self._around("is_abroad") and (not device["roaming_enabled"] or not self._around("roaming_allowed")):
            return False
        return bool(device["data_enabled"]) and not self._around("mobile_data_usage_exceeded")

    def _speed_test(self) -> tuple[float | None, str]:
        """(Mbps, its word) as tau2's simulated speed test gives them; (None, "No Connection") without data."""
        if not self._mobile_data_working():
            return None, "No Connection"
        device = self.db.tables["device"]
        vpn = device["vpn_details"]
        factor = 0.1 if device["vpn_connected"] and vpn and vpn["server_performance"] == "poor" else 1.0
        if device["data_saver_mode"]:
            factor *= 0.2
        low, high = SPEEDS.get(device["network_technology_connected"], (0.0, 0.0))
        speed = round((low + high) / 2.0 * SIGNAL_FACTOR.get(device["network_signal_strength"], 0.0) * factor, 2)
        return speed, next((word for bound, word in SPEED_WORDS if speed < bound), "Excellent")

    def _can_send_mms(self) -> bool:
        device = self.db.tables["device"]
        if not self._mobile_data_working() or device["network_technology_connected"] == "2G":
            return False
        if device["wifi_calling_enabled"] and device["wifi_calling_mms_over_wifi"]:
            return False
        if self._apn("mmsc_url")["mmsc_url"] is None:
            return False
        messaging = device["app_statuses"].get("messaging")
        return bool(messaging) and messaging["permissions"]["storage"] and messaging["permissions"]["sms"]

    def _toggle_airplane_mode(self) -> bool:
        was_on = self._device("airplane_mode")
        self._set(airplane_mode=not was_on)
        if was_on:
            self._set(network_connection_status="searching")
        if not was_on or self._device("wifi_enabled"):
            self._set(wifi_connected=False, wifi_ssid=None, wifi_signal_strength="none")
        if not was_on and self._device("vpn_connected"):
            self._disconnect_vpn()
        self.simulate_network_search()
        return self._device("airplane_mode")

    def _flip(self, field: str, search: bool) -> bool:
        """Turn a device setting over (and search the network again when `search`); its new state."""
        state = not self._device(field)
        self._set(**{field: state})
        if search:
            self.simulate_network_search()
        return state

    def _disconnect_vpn(self) -> bool:
        if not self._device("vpn_connected"):
            return False
        self._set(vpn_connected=False, vpn_details=None)
        return True

    def _connect_vpn(self) -> bool | None:
        if self._device("vpn_connected"):
            return None
        self._set(vpn_connected=True, vpn_details=dict(self.vpn_default))
        return True

    def _toggle_wifi(self) -> bool | None:
        if self._device("airplane_mode"):
            return None
        state = self._flip("wifi_enabled", search=False)
        if not state:
            self._set(wifi_connected=False, wifi_ssid=None, wifi_signal_strength="none")
        return state

    def _app(self, app_name: str) -> dict[str, Any] | None:
        """The app's own copy in this database, to change (None when the phone has no such app)."""
        if app_name not in self._device("app_statuses"):
            return None
        return self.db.writable("device", "app_statuses")[app_name]


def _refused(name: str, message: str, kind: str, value: Any) -> str:
    """One field's error as pydantic writes it (the docs link of the pydantic tau2 1.0.1 installs with)."""
    return (f"{name}\n  {message} [type={kind}, input_value={value!r}, input_type={type(value).__name__}]\n"
            f"    For further information visit https://errors.pydantic.dev/{PYDANTIC}/v/{kind}")


def apn_record(given: dict[str, Any]) -> dict[str, Any]:
    """APN settings as tau2's model makes them from a dict (ValueError as pydantic words a name that is not one of
    tau2's or a field it does not have)."""
    wrong = []
    if "apn_name" in given and given["apn_name"] not in ("internet", "broken"):
        wrong.append(_refused("apn_name", "Input should be 'internet' or 'broken'", "enum", given["apn_name"]))
    wrong += [_refused(name, "Extra inputs are not permitted", "extra_forbidden", value)
              for name, value in given.items() if name not in APN_DEFAULTS]
    if wrong:
        raise ValueError(f"{len(wrong)} validation error{'s' if len(wrong) > 1 else ''} for APNSettings\n"
                         + "\n".join(wrong))
    return {**APN_DEFAULTS, **given}
