"""tau2's telecom user tools: what the simulated user can do on the phone (same names, arguments and answers as
tau2's TelecomUserTools), and the functions its tasks' initial states and assertions call."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..toolkit import tool
from .phone import MODES, Phone, apn_record
from .tables import APN_DEFAULTS

ON_OFF = {True: "ON", False: "OFF"}
YES_NO = {True: "Yes", False: "No"}
SIM_WORDS = {"active": "Your SIM card is active and working.", "missing": "No SIM card detected in the phone.",
             "locked_pin": "The SIM card is locked with a PIN code.",
             "locked_puk": "The SIM card is locked with a PUK code."}
SPEED_ADVICE = {"Very Poor": "Connection is very slow. Basic web browsing might be difficult.",
                "Poor": "Connection is slow. Web browsing may be sluggish, streaming difficult.",
                "Fair": "Connection is okay for web browsing and some standard definition streaming.",
                "Good": "Connection is good for most activities, including HD streaming.",
                "Excellent": "Connection is very fast."}


class TelecomUserTools(Phone):
    """The telecom user's tools over the phone in the user database."""

    @tool(mutates=False)
    def check_status_bar(self) -> str:
        return f"Status Bar: {self._status_bar()}"

    @tool(mutates=False)
    def check_network_status(self) -> str:
        device = self.db.tables["device"]
        lines = [f"Airplane Mode: {ON_OFF[bool(device['airplane_mode'])]}",
                 f"SIM Card Status: {self._sim_status()}",
                 f"Cellular Connection: {device['network_connection_status']}",
                 f"Cellular Signal: {device['network_signal_strength']}",
                 f"Cellular Network Type: {device['network_technology_connected']}",
                 f"Mobile Data Enabled: {YES_NO[bool(device['data_enabled'])]}",
                 f"Data Roaming Enabled: {YES_NO[bool(device['roaming_enabled'])]}",
                 f"Wi-Fi Radio: {ON_OFF[bool(device['wifi_enabled'])]}",
                 f"Wi-Fi Connected: {YES_NO[bool(device['wifi_connected'])]}"]
        if device["wifi_connected"]:
            lines.append(f"Connected Wi-Fi Network: {device['wifi_ssid']}")
        return "\n".join(lines)

    @tool(mutates=False)
    def check_network_mode_preference(self) -> str:
        return f"Network Mode Preference: {_mode_value(self._device('network_mode_preference'))}"

    @tool(mutates=True)
    def set_network_mode_preference(self, mode: str) -> str:
        """A mode that is text must be one of tau2's; anything else tau2 keeps as it is (then fails on its value)."""
        if not isinstance(mode, str) or mode in MODES:
            self._set(network_mode_preference=mode)
            self.simulate_network_search()
        if mode is None or isinstance(mode, str) and mode not in MODES:
            return self._with_status_bar(f"Failed to set network mode: '{mode}' is not a valid option. Please use "
                                         f"one of: {', '.join(MODES)}")
        return self._with_status_bar(f"Preferred Network Mode set to: {_mode_value(mode)}")

    @tool(mutates=False)
    def run_speed_test(self) -> str:
        speed, word = self._speed_test()
        if speed is None:
            return f"Speed test failed: {word or 'Could not determine speed'}."
        return f"Speed Test Result: {speed:.2f} Mbps ({word}). {SPEED_ADVICE.get(word, '')}"

    @tool(mutates=True)
    def toggle_airplane_mode(self) -> str:
        return self._with_status_bar(f"Airplane Mode is now {ON_OFF[bool(self._toggle_airplane_mode())]}.")

    @tool(mutates=False)
    def check_sim_status(self) -> str:
        status = self._sim_status()
        return SIM_WORDS.get(status, f"Unknown SIM status: {status}")

    @tool(mutates=True)
    def reseat_sim_card(self) -> str:
        self._set(sim_card_missing=False)
        self.simulate_network_search()
        return self._with_status_bar("SIM card re-seated successfully.")

    @tool(mutates=True)
    def toggle_data(self) -> str:
        return self._with_status_bar(f"Mobile Data is now {ON_OFF[self._flip('data_enabled', search=True)]}.")

    @tool(mutates=True)
    def toggle_roaming(self) -> str:
        return self._with_status_bar(f"Data Roaming is now {ON_OFF[self._flip('roaming_enabled', search=True)]}.")

    @tool(mutates=False)
    def check_data_restriction_status(self) -> str:
        return f"Data Saver mode is {'ON (limits data usage)' if self._device('data_saver_mode') else 'OFF'}."

    @tool(mutates=True)
    def toggle_data_saver_mode(self) -> str:
        state = self._flip("data_saver_mode", search=False)
        return self._with_status_bar(f"Data Saver Mode is now {ON_OFF[state]}.")

    @tool(mutates=False)
    def check_apn_settings(self) -> str:
        settings = self._apn("model_copy")
        return (f"Current APN Name: {settings['apn_name'] or 'Not Set'}\n"
                f"MMSC URL (for picture messages): {settings['mmsc_url'] or 'Not Set'}\n"
                "(These are technical settings, usually best left unchanged.)")

    @tool(mutates=True)
    def set_apn_settings(self, apn_settings: dict) -> str:
        if not isinstance(apn_settings, dict):  # tau2 keeps it, then fails reading its name
            self._set(active_apn_settings=apn_settings)
            raise AttributeError(f"'{type(apn_settings).__name__}' object has no attribute 'apn_name'")
        settings = apn_record(apn_settings)
        self._set(active_apn_settings=settings)
        self.simulate_network_search()
        return self._with_status_bar(f"APN settings set to: {settings['apn_name']}")

    @tool(mutates=True)
    def reset_apn_settings(self) -> str:
        self._apn("reset_at_reboot", writable=True)["reset_at_reboot"] = True
        self.simulate_network_search()
        return self._with_status_bar("APN settings will reset at reboot.")

    @tool(mutates=False)
    def check_wifi_status(self) -> str:
        device = self.db.tables["device"]
        if not device["wifi_enabled"]:
            return "Wi-Fi is turned OFF."
        if device["wifi_connected"]:
            return (f"Wi-Fi is ON and connected to '{device['wifi_ssid']}'. "
                    f"Signal strength: {device['wifi_signal_strength']}.")
        return "Wi-Fi is ON but not connected to any network."

    @tool(mutates=True)
    def toggle_wifi(self) -> str:
        state = self._toggle_wifi()
        if state is None:
            return self._with_status_bar("Cannot change Wi-Fi settings while Airplane Mode is ON.")
        return self._with_status_bar(f"Wi-Fi is now {ON_OFF[state]}.")

    @tool(mutates=False)
    def check_wifi_calling_status(self) -> str:
        return f"Wi-Fi Calling is currently turned {ON_OFF[bool(self._device('wifi_calling_enabled'))]}."

    @tool(mutates=True)
    def toggle_wifi_calling(self) -> str:
        state = self._flip("wifi_calling_enabled", search=False)
        return self._with_status_bar(f"Wi-Fi Calling is now {ON_OFF[state]}.")

    @tool(mutates=False)
    def check_vpn_status(self) -> str:
        if self._device("vpn_connected"):
            details = self._device("vpn_details")
            if details:
                return f"VPN is ON and connected. Details: {_details_text(details)}"
            return "VPN is ON and connected (no specific details available)."
        if self._device("vpn_enabled_setting"):
            return "VPN is turned ON in settings, but currently not connected."
        return "VPN is turned OFF."

    @tool(mutates=True)
    def connect_vpn(self) -> str:
        connected = self._connect_vpn()
        if connected is None:
            return "VPN already connected."
        return self._with_status_bar("VPN connected successfully.")

    @tool(mutates=True)
    def disconnect_vpn(self) -> str:
        done = self._disconnect_vpn()
        return self._with_status_bar("VPN disconnected successfully." if done else
                                     "No active VPN connection to disconnect.")

    @tool(mutates=False)
    def check_installed_apps(self) -> str:
        return f"The following apps are installed on the phone: {', '.join(self._device('app_statuses'))}"

    @tool(mutates=False)
    def check_app_status(self, app_name: str) -> str:
        app = self._device("app_statuses").get(app_name)
        if not app:
            return f"App '{app_name}' not found on this phone."
        granted = _granted(app["permissions"])
        if not granted:
            return f"Status for App: {app_name}\n - Permissions: None granted."
        return "\n".join([f"Status for App: {app_name}", " - Permissions Granted:",
                          *(f"   - {name}" for name in granted)])

    @tool(mutates=False)
    def check_app_permissions(self, app_name: str) -> str:
        app = self._device("app_statuses").get(app_name)
        if not app:
            return f"App '{app_name}' not found on this phone."
        granted = _granted(app["permissions"])
        if not granted:
            return f"App '{app_name}' currently has no permissions granted."
        return f"App '{app_name}' has permission for: {', '.join(granted)}."

    @tool(mutates=True)
    def grant_app_permission(self, app_name: str, permission: str) -> str:
        permission = permission.lower()
        if app_name not in self._device("app_statuses"):
            message = f"Error. App '{app_name}' not found. Cannot grant permission."
        elif permission not in self._device("app_statuses")[app_name]["permissions"]:
            available = list(self._device("app_statuses")[app_name]["permissions"])
            message = (f"Error. Permission '{permission}' not tracked for app '{app_name}', available permissions: "
                       f"{available}")
        else:
            self._app(app_name)["permissions"][permission] = True
            message = f"Success. Permission '{permission}' granted to app '{app_name}'."
        return self._with_status_bar(message)

    @tool(mutates=False)
    def can_send_mms(self) -> str:
        return f"Your messaging app {'can' if self._can_send_mms() else 'cannot'} send MMS messages."

    @tool(mutates=True)
    def reboot_device(self) -> str:
        lines = []
        if self._apn("reset_at_reboot")["reset_at_reboot"]:
            lines.append("Resetting APN settings...")
            self._set(active_apn_settings=dict(APN_DEFAULTS))
        lines.append("Restarting network services...")
        self._set(network_connection_status="searching")
        self.simulate_network_search()
        return self._with_status_bar("\n".join(lines))

    @tool(mutates=False)
    def check_payment_request(self) -> str:
        request = self._around("payment_request")
        if request is None:
            return "No payment request has been made."
        return f"You have a payment request for bill {request['bill_id']} of {request['amount_due']} USD."

    @tool(mutates=True)
    def make_payment(self) -> str:
        if self._around("payment_request") is None:
            return "You do not have a payment request."
        request = self.db.writable("surroundings", "payment_request")
        request["paid"] = True
        return f"Payment of {request['amount_due']} USD has been made for bill {request['bill_id']}."

    # the functions tasks' initial states call
    def set_user_info(self, name: str, phone_number: str) -> None:
        self.set_surroundings(name=name, phone_number=phone_number)

    def set_user_location(self, abroad: bool) -> None:
        self.set_surroundings(is_abroad=abroad)

    @staticmethod
    def _until(wanted: bool, flip: Callable[[], bool]) -> None:
        """Flip a setting, and once more when that did not leave it `wanted` (tau2's turn_*_on/off)."""
        if flip() != wanted:
            flip()

    def turn_airplane_mode_on(self) -> str:
        self._until(True, self._toggle_airplane_mode)
        return "Airplane Mode is now ON."

    def turn_airplane_mode_off(self) -> str:
        self._until(False, self._toggle_airplane_mode)
        return "Airplane Mode is now OFF."

    def unseat_sim_card(self) -> str:
        self._set(sim_card_missing=True)
        self.simulate_network_search()
        return "SIM card un-seated successfully."

    def lock_sim_card(self, mode: str) -> str:
        if mode in ("pin", "puk"):
            self._set(sim_card_status=f"locked_{mode}")
        self.simulate_network_search()
        return f"SIM card locked successfully in {mode} mode."

    def turn_data_on(self) -> str:
        self._set(data_enabled=True)
        return "Data connection restored."

    def turn_data_off(self) -> str:
        self._until(False, lambda: self._flip("data_enabled", search=True))
        return "Data connection broken."

    def turn_roaming_on(self) -> str:
        self._until(True, lambda: self._flip("roaming_enabled", search=True))
        return "Data Roaming is now ON."

    def turn_roaming_off(self) -> str:
        self._until(False, lambda: self._flip("roaming_enabled", search=True))
        return "Data Roaming is now OFF."

    def turn_data_saver_mode_on(self) -> str:
        self._until(True, lambda: self._flip("data_saver_mode", search=False))
        return "Data Saver Mode is now ON."

    def turn_data_saver_mode_off(self) -> str:
        self._until(False, lambda: self._flip("data_saver_mode", search=False))
        return "Data Saver Mode is now OFF."

    def break_apn_settings(self) -> str:
        self._apn("apn_name", writable=True)["apn_name"] = "broken"
        self.simulate_network_search()
        return "APN settings broken. Please call reset_apn_settings() to fix."

    def break_apn_mms_setting(self) -> str:
        self._apn("mmsc_url", writable=True)["mmsc_url"] = None
        return "APN MMS setting broken. Please call reset_apn_settings() to fix."

    def set_wifi_calling(self, enabled: bool, mms_over_wifi: bool | None = None) -> str:
        if self._device("wifi_calling_enabled") != enabled:
            self._flip("wifi_calling_enabled", search=False)
        message = f"Wi-Fi Calling is now {'ON' if enabled else 'OFF'}."
        if mms_over_wifi is not None:
            self._set(wifi_calling_mms_over_wifi=mms_over_wifi)
            message += f"\nMMS over Wi-Fi is now {'ON' if mms_over_wifi else 'OFF'}."
        return message

    def break_vpn(self) -> str:
        self._connect_vpn()
        self.vpn_default["server_performance"] = "poor"
        self.db.writable("device", "vpn_details")["server_performance"] = "poor"
        return "VPN connection broken."

    def remove_app_permission(self, app_name: str, permission: str) -> tuple[bool, str]:
        permission = permission.lower()
        if app_name not in self._device("app_statuses"):
            return False, f"App '{app_name}' not found. Cannot remove permission."
        if permission not in self._device("app_statuses")[app_name]["permissions"]:
            return False, f"Permission '{permission}' not tracked for app '{app_name}'."
        self._app(app_name)["permissions"][permission] = False
        return True, f"Permission '{permission}' removed from app '{app_name}'."

    # the functions tasks' assertions call
    def assert_airplane_mode_status(self, expected_status: bool) -> bool:
        return self._device("airplane_mode") == expected_status

    def assert_service_status(self, expected_status: str) -> bool:
        if expected_status not in ("connected", "searching", "no_service", "emergency_only"):
            raise ValueError(f"'{expected_status}' is not a valid NetworkStatus")
        return self._device("network_connection_status") == expected_status

    def assert_mobile_data_status(self, expected_status: bool) -> bool:
        return self._mobile_data_working() == expected_status

    def assert_mobile_roaming_status(self, expected_status: bool) -> bool:
        return self._device("roaming_enabled") == expected_status

    def assert_mobile_data_saver_mode_status(self, expected_status: bool) -> bool:
        return self._device("data_saver_mode") == expected_status

    def assert_internet_speed(self, expected_speed: float, expected_desc: str | None = None) -> bool:
        speed, word = self._speed_test()
        speed = speed or 0.0
        return speed >= expected_speed and (expected_desc is None or word.lower() == expected_desc.lower())

    def assert_internet_not_excellent(self) -> bool:
        return self._speed_test()[1].lower() != "excellent"

    def assert_can_send_mms(self, expected_status: bool) -> bool:
        return self._can_send_mms() == expected_status

    def assert_mobile_data_usage_exceeded(self, expected_status: bool) -> bool:
        return self._around("mobile_data_usage_exceeded") == expected_status


def _mode_value(mode: Any) -> str:
    """A mode's value, as tau2 reads it off its enum (AttributeError for anything else, as there)."""
    if not isinstance(mode, str):
        raise AttributeError(f"'{type(mode).__name__}' object has no attribute 'value'")
    return mode


def _granted(permissions: dict[str, bool]) -> list[str]:
    return [name.replace("_", " ").lower() for name, allowed in permissions.items() if allowed]


def _details_text(details: dict[str, Any]) -> str:
    """VPN details as tau2 prints its model's dump (the performance shown as its enum)."""
    level = details["server_performance"]
    return (f"{{'server_address': {details['server_address']!r}, 'protocol': {details['protocol']!r}, "
            f"'server_performance': <PerformanceLevel.{level.upper()}: {level!r}>}}")
