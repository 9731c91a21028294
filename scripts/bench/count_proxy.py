#!/usr/bin/env python3
"""A plain-HTTP forwarding proxy that counts requests, for benchmarks.

Usage: count_proxy.py UPSTREAM_PORT COUNT_FILE [LOG_FILE]
Listens on a kernel-picked loopback port (printed on stdout as the first
line), forwards every connection to 127.0.0.1:UPSTREAM_PORT (kubectl proxy),
and keeps COUNT_FILE holding the number of HTTP requests seen so far. Request
heads are parsed (Content-Length bodies; clients here send no chunked bodies);
responses, watches included, are piped through untouched. With LOG_FILE, each
request is also logged as a line `<unix time> <method> <path>`, for a timeline of
who asked what when (the bench's profiles, docs/benchmarks.md).
"""
import asyncio
import sys
import time

UPSTREAM = int(sys.argv[1])
COUNT_FILE = sys.argv[2]
LOG = open(sys.argv[3], "a", buffering=1) if len(sys.argv) > 3 else None
count = 0


def bump():
    global count
    count += 1
    with open(COUNT_FILE, "w") as f:
        f.write(f"{count}\n")


async def requests(reader, writer):
    while True:
        head = await reader.readuntil(b"\r\n\r\n")
        bump()
        if LOG:
            LOG.write(f"{time.time():.3f} {head.split(b' ', 2)[0].decode()} {head.split(b' ', 2)[1].decode()}\n")
        length = 0
        for line in head.split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value.strip() or 0)
        writer.write(head)
        if length:
            writer.write(await reader.readexactly(length))
        await writer.drain()


async def pipe(reader, writer):
    while data := await reader.read(65536):
        writer.write(data)
        await writer.drain()


async def handle(client_r, client_w):
    up_r, up_w = await asyncio.open_connection("127.0.0.1", UPSTREAM)
    tasks = [asyncio.create_task(requests(client_r, up_w)), asyncio.create_task(pipe(up_r, client_w))]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    except Exception:
        pass
    for t in tasks:
        t.cancel()
    for w in (client_w, up_w):
        try:
            w.close()
        except Exception:
            pass


async def main():
    bump_zero = open(COUNT_FILE, "w")
    bump_zero.write("0\n")
    bump_zero.close()
    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    print(server.sockets[0].getsockname()[1], flush=True)
    async with server:
        await server.serve_forever()


asyncio.run(main())
