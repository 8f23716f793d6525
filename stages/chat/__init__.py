"""Asking chat servers: one endpoint description shared by [generate] and [judge], the client and its retries, calls
that stop on a signal, the journal every reply is kept in, what calls cost, and live generation (B2)."""
