"""tau2's telecom domain: the agent's tools over customers, lines and bills, the user's simulated phone."""
