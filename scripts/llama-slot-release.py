#!/usr/bin/env python3
"""How long llama-server keeps a slot busy after the client of a long prompt goes away (a hedged race the device
lost): starts the server with the given extra arguments, times two whole long prompts, then three that are dropped
300 ms in, polling /slots until no slot is processing. docs/app-integration.md quotes its figures.

Usage: scripts/llama-slot-release.py LLAMA_SERVER MODEL.gguf [extra llama-server arguments, e.g. -b 256 -ub 256]
"""
import json, socket, subprocess, sys, time, urllib.request, os, signal
S=sys.argv[1]; M=sys.argv[2]; extra=sys.argv[3:]
port=18123
p=subprocess.Popen([S,"-m",M,"--port",str(port),"--host","127.0.0.1","-c","4096"]+extra,stdout=subprocess.DEVNULL,stderr=subprocess.DEVNULL)
base=f"http://127.0.0.1:{port}"
for _ in range(100):
    try: urllib.request.urlopen(base+"/health",timeout=1).read(); break
    except Exception: time.sleep(0.2)
words=["river","market","council","harbour","engine","garden","ledger","signal","orchard","bridge","lantern","meadow"]
def prompt(salt): return " ".join(words[(i*7+salt*5)%12] for i in range(1200))+"."
def full(salt):
    body=json.dumps({"messages":[{"role":"user","content":"Summarize: "+prompt(salt)}],"max_tokens":4,"temperature":0}).encode()
    t=time.time(); r=json.load(urllib.request.urlopen(urllib.request.Request(base+"/v1/chat/completions",data=body,headers={"Content-Type":"application/json"})))
    return (time.time()-t)*1000, r["timings"]["prompt_n"], r["timings"]["prompt_ms"]
def cancelled(salt):
    body=json.dumps({"messages":[{"role":"user","content":"Summarize: "+prompt(salt)}],"max_tokens":64,"temperature":0,"stream":True}).encode()
    s=socket.create_connection(("127.0.0.1",port))
    s.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n"%len(body)+body)
    time.sleep(0.3); s.close(); t=time.time()
    while True:
        st=json.load(urllib.request.urlopen(base+"/slots"))
        if not any(x.get("is_processing") for x in st): return (time.time()-t)*1000
        time.sleep(0.02)
try:
    print("args",extra or "default")
    for i in range(2): print(" full: total %.0f ms, prompt %d tokens in %.0f ms"%full(100+i))
    print(" slot free after cancel: "+", ".join("%.0f ms"%cancelled(200+i) for i in range(3)))
finally:
    p.send_signal(signal.SIGTERM); p.wait()
