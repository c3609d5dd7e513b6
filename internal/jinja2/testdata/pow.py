"""Writes testdata/pow.txt: x TAB y TAB repr(x ** y) or !Error, for random floats (seeded).
Run: python3 testdata/pow.py > testdata/pow.txt"""
import random
rng = random.Random(7)
vals = []
for _ in range(3000):
    x = rng.choice([rng.uniform(0, 10), rng.uniform(0, 1e-3), 10 ** rng.uniform(-300, 300), rng.randint(1, 1000) + 0.0, rng.uniform(-10, 0)])
    y = rng.choice([rng.uniform(-5, 5), rng.uniform(-300, 300) / 7, float(rng.randint(-40, 40)), rng.randint(-8, 8) / 4, 0.1, 1 / 3])
    try:
        r = repr(x ** y)
        if isinstance(x ** y, complex):
            continue
    except Exception as e:
        r = "!" + type(e).__name__
    print("%r\t%r\t%s" % (x, y, r))
