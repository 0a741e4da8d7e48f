"""The raw Python client `hybrid-bench cli` compares `hybrid eval` with (issue #10 stated its table against it).

usage: aiohttp-bench-client.py URL BODY_FILE REQUESTS CONCURRENCY

POSTs BODY_FILE to URL REQUESTS times, CONCURRENCY at once over one aiohttp session, and reads every body
(streamed or not) to its end: no parsing, no scoring, no storage. Exits 1 on any status other than 200.
"""
import asyncio
import sys

import aiohttp


async def main(url: str, body_path: str, requests: int, concurrency: int) -> None:
    with open(body_path, "rb") as f:
        body = f.read()
    headers = {"Content-Type": "application/json"}
    remaining = requests
    connector = aiohttp.TCPConnector(limit=concurrency)
    async with aiohttp.ClientSession(connector=connector) as session:

        async def worker() -> None:
            nonlocal remaining
            while remaining > 0:
                remaining -= 1
                async with session.post(url, data=body, headers=headers) as response:
                    await response.read()
                    if response.status != 200:
                        raise SystemExit(f"status {response.status}")

        await asyncio.gather(*(worker() for _ in range(concurrency)))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])))
