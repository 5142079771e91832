# Validates values with python-stdnum, the independent implementation StdnumCrossCheckTest holds
# vfps's check digits to. Reads "kind<TAB>alphabet<TAB>value" lines on stdin (kind: luhn, damm or
# verhoeff; the alphabet is read by luhn only) and writes one line per value: 1 if stdnum's
# validate accepts it, 0 if it raises a validation error.
import sys

from stdnum import damm, luhn, verhoeff
from stdnum.exceptions import ValidationError

VALIDATE = {
    "luhn": lambda alphabet, value: luhn.validate(value, alphabet=alphabet),
    "damm": lambda alphabet, value: damm.validate(value),
    "verhoeff": lambda alphabet, value: verhoeff.validate(value),
}

results = []
for line in sys.stdin:
    kind, alphabet, value = line.rstrip("\n").split("\t")
    try:
        VALIDATE[kind](alphabet, value)
        results.append("1")
    except ValidationError:
        results.append("0")
sys.stdout.write("\n".join(results) + "\n")
