"""A client that stops reading its socket is dropped once TABLE_SOCKET_MAX_BUFFER bytes
wait for it (rollcall/wslimits.py), and the others at the table keep receiving every
card, whole and in order; the dropped client comes back and gets what it missed.

Runs bench/slow_reader.py's scenario against a real daphne process on a SQLite database
in a temporary directory: one raw TCP client does the websocket handshake with a tiny
receive buffer and never reads; the GM sends big rolls (~15 KB a card, ~15 MB in all)
that reach 7 reading sockets, one more that reads in bursts, and the stalled one.
daphne's keep-alive is off, so without the bound nothing drops the stalled socket and
what it is owed piles up in the server. What that costs in memory and latency is a
figure of the machine, not a behaviour: `bench/slow_reader.py` prints it
(docs/reliability.md). Here the sender never runs more than a few rolls ahead of the
slowest reading socket, and every wait only guards against a hang: a busy machine makes
the run longer, not different.
"""

from __future__ import annotations

from bench.slow_reader import REPLAYED, measure


def test_a_client_that_stops_reading_is_dropped_and_the_table_keeps_up():
    result = measure(warmup=200, rolls=800, rate=50.0, figures=False)
    last = result["rolls"]
    assert result["dropped"], "the stalled socket was never dropped"
    everything = list(range(1, last + 1))
    assert result["missing"] == 0, f"{result['missing']} cards never reached a reading socket"
    assert all(order == everything for order in result["arrived"]), "cards came out of order"
    assert result["in_bursts"] == everything, "the bursty reader lost cards"
    assert result["replayed"] == list(range(last - REPLAYED + 1, last + 1))
