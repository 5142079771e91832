# Validates values with python-stdnum, the independent implementation StdnumCrossCheckTest holds
# vfps's check digits to. Reads "kind<TAB>alphabet<TAB>value" lines on stdin (kind: luhn, damm,
# verhoeff, gpas_damm or gpas_verhoeff; the alphabet is read by luhn only) and writes one line per
# value: 1 if stdnum's validate accepts it, 0 if it raises a validation error. gPAS's variants are
# stdnum's own functions put as gPAS computes: Damm's check digit of the drawn digits read from
# the last to the first, and Verhoeff's checksum (the product, no inverse) of the drawn digits.
import sys

from stdnum import damm, luhn, verhoeff
from stdnum.exceptions import ValidationError



def gpas(check_digit_of):
    def validate(alphabet, value):
        if len(value) < 2 or str(check_digit_of(value[:-1])) != value[-1]:
            raise ValidationError()

    return validate


VALIDATE = {
    "luhn": lambda alphabet, value: luhn.validate(value, alphabet=alphabet),
    "damm": lambda alphabet, value: damm.validate(value),
    "verhoeff": lambda alphabet, value: verhoeff.validate(value),
    "gpas_damm": gpas(lambda drawn: damm.calc_check_digit(drawn[::-1])),
    "gpas_verhoeff": gpas(verhoeff.checksum),
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
