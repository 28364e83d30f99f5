"""The table server: pages over HTTP, one WebSocket per seat, everything kept in SQLite."""
