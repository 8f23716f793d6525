"""B6: dataset reports and the run summary, as JSON, console text and a self-contained HTML page."""
