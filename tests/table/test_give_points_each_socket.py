"""Over the socket, the GM's give to several characters is one "act": one card reaches
every member's socket; a player's attempt is refused and changes nothing."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync

from table.models import TableEvent

from .sockets import caught_up, messages, open_socket, send, seqs
from .test_whispers import cards, notice

pytestmark = pytest.mark.django_db(transaction=True)


def test_one_act_gives_each_a_point_and_one_card_reaches_everyone(table_for):
    t = table_for("serenity")  # Mal and Zoe hold 2 each
    request = {"amount": 1, "sheets": [t.pc.pk, t.other_pc.pk]}

    async def play():
        socks = {}
        for user in (t.gm, t.player):
            comm, connected, _ = await open_socket(user, t.campaign, last_seq=0)
            assert connected
            await caught_up(comm)
            socks[user] = comm
        act = {"type": "act", "action": "give_points_each", "request": request}
        await send(socks[t.player], act)
        refused = notice(await messages(socks[t.player], 1, quiet=0.3))
        await send(socks[t.gm], act)
        got = {user: await messages(comm, 1, quiet=0.4) for user, comm in socks.items()}
        for comm in socks.values():
            await comm.disconnect()
        return refused, got

    refused, got = async_to_sync(play)()
    assert "Only the GM" in refused
    for user in (t.gm, t.player):
        assert seqs(got[user]) == [1], user
        assert "GM gave Mal and Zoe 1 plot point each" in cards(got[user]), user
    assert TableEvent.objects.count() == 1
    assert [t.counter(s, "plot_points") for s in (t.pc, t.other_pc)] == [3, 3]
