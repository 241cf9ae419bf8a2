/* The C behaviour table of dnlint.cnumbers: what glibc makes of tricky number text.
 *
 * Darknet's C parsers read an integer option with atoi(), a float option with atof() assigned
 * to a float, and hank-ai's C++ parser reads with std::stof/std::stoi, which the C++ standard
 * defines as strtof/strtol plus two checks (no conversion: invalid_argument; errno == ERANGE or,
 * for stoi, a long outside int: out_of_range). This program prints, for each input below, what
 * each of those gives; tests/test_cnumbers.py checks every row against dnlint's emulation.
 *
 * A second table (--lists) gives, for tricky list values, the items each dialect's list walk
 * reads: the original's and AlexeyAB's (count the commas, before the first '#' where AlexeyAB
 * stops there, then atoi/atof where the walk stands and move past the next comma) and hank-ai's
 * (each maximal run of "-0123456789" or "-.0123456789" is one item, read with std::stoi or
 * std::stof; the list ends at the first run those refuse). These walks are written here from
 * the description in docs/darknet-format.md (sections 2.4 and 2.5), not copied from Darknet.
 *
 * Regenerate the tables (any C compiler on a glibc system, x86-64 or aarch64 Linux):
 *     cc -O0 -o /tmp/cnumbers tests/cbehaviour/cnumbers.c
 *     /tmp/cnumbers > tests/cbehaviour/c_numbers.tsv
 *     /tmp/cnumbers --lists > tests/cbehaviour/c_lists.tsv
 *
 * Columns (tab-separated): input, escaped (\\ \t \n \r \v \f and \xNN for bytes outside
 * printable ASCII); atoi; strtol (a C long); atof as a hex float (%a); (float)atof as %a;
 * the int a C cast of that float gives on this machine (undefined in C when out of range: x86
 * gives INT_MIN); std::stof's outcome (%a, or invalid_argument, out_of_range); std::stoi's.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const INPUTS[] = {
    "0", "1", "16", "-1", "+5", "-0", "+0", "007", "010",
    " 12", "\t12", "  -3", "\v7", "\f7", "\n7", "\r7", "12 ", "1 2",
    "+-5", "-+5", "--5", "++5", "-", "+", "", " ", ".", "-.", "+.", "e5",
    "3x", "12abc", "1,5", "1.5", "1.9", "-1.9", "0.5", ".5", "-.5", "5.", "1.2.3", "1-2",
    "1#comment", "5;x", "-1,-4", "4561",
    "0x10", "0X1A", "0x", "0xg", "0x1p3", "0x.8", "-0x10", "0x1P-2", "0x1.8p1",
    "1e3", "1E3", "1e", "1e+", "1e-", "1e+2", "2.5e-3", "1e-4", "-1e-4", ".1e1",
    "inf", "INF", "-inf", "+inf", "infinity", "Infinity", "infinit", "infx", "in",
    "nan", "NaN", "-nan", "+nan", "nan(123)", "nan(", "nanx", "na",
    "2147483647", "2147483648", "-2147483648", "-2147483649", "4294967295", "4294967296",
    "4294967297", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
    "-9223372036854775809", "9999999999999999999", "-9999999999999999999", "99999999999999999999", "18446744073709551617",
    "00000000000000000000000000000042", "-00000000000000000000000000000042",
    "16777216", "16777217", "16777218", "2147483520", "2147483584", "2147483647.5",
    "0.1", "0.3", "3.14159265358979", "1.0000000596046448", "1.000000059604644775390625",
    "1.00000005960464477539062501", "340282356779733661637539395458142568448",
    "340282356779733661637539395458142568447.9", "-340282356779733661637539395458142568447.9",
    "1e-310", "4.9e-324", "2e-324", "1e-400",
    "1e-38", "1.17549435e-38", "1.1754942e-38", "1e-40", "1.4e-45", "7e-46", "1e-46", "1e-50",
    "3.4028234e38", "3.40282346638528859811704183484516925440e+38", "3.4028235e38",
    "3.40282356e38", "3.402823567e38", "3.4028236e38", "-3.4028236e38", "1e39", "-1e39",
    "1e308", "1.8e308", "1e400", "-1e400",
    "0.0000000000000000000000000000000000000000000014012984643248170709237295832899161312802619418765157717570682838897910826858606014866381883621215820312500000",
    "\xd9\xa3", "1\xd9\xa3", "\xef\xbc\x91", "1_000", "12\xc2\xa0",
};

static const char *const LISTS[] = {
    "10,13,16", "-1,-4", "-1,,-4", "-1,", ",", "", "1,2#3,4", "1#,2", "#1,2", "1,2,3,",
    "1.5,2.5", "1.5", "1e-4,2", "3x,4", "1 2,3", "-", "--1,2", "1-2", "0.5.5", "a,b",
    "99999999999,1", "1,99999999999,2", "3.5e39,1", "1;2,3", "0x10,2", " 5, 6", "-.5,.5",
    ".,1", "1..2", "12abc34", "4294967297,1",
};

static void put_escaped(const char *text) {
    for (const unsigned char *p = (const unsigned char *)text; *p; ++p) {
        switch (*p) {
        case '\\': fputs("\\\\", stdout); break;
        case '\t': fputs("\\t", stdout); break;
        case '\n': fputs("\\n", stdout); break;
        case '\r': fputs("\\r", stdout); break;
        case '\v': fputs("\\v", stdout); break;
        case '\f': fputs("\\f", stdout); break;
        default:
            if (*p < 0x20 || *p > 0x7e) printf("\\x%02x", *p);
            else putchar(*p);
        }
    }
}

static void put_float(double value) { printf("\t%a", value); }

static void put_stof(const char *text) {
    char *end;
    errno = 0;
    float value = strtof(text, &end);
    if (end == text) fputs("\tinvalid_argument", stdout);
    else if (errno == ERANGE) fputs("\tout_of_range", stdout);
    else put_float(value);
}

static void put_stoi(const char *text) {
    char *end;
    errno = 0;
    long value = strtol(text, &end, 10);
    if (end == text) fputs("\tinvalid_argument", stdout);
    else if (errno == ERANGE || value < INT_MIN || value > INT_MAX) fputs("\tout_of_range", stdout);
    else printf("\t%ld", value);
}

static void put_row(const char *text) {
    put_escaped(text);
    printf("\t%d\t%ld", atoi(text), strtol(text, NULL, 10));
    double wide = atof(text);
    volatile float narrow = (float)wide; /* volatile: the cast below happens at run time */
    put_float(wide);
    put_float(narrow);
    printf("\t%d", (int)narrow);
    put_stof(text);
    put_stoi(text);
    putchar('\n');
}

/* One item of a list: a separator, then the number. */
static void put_item(size_t index, const char *text, int floats) {
    if (index) putchar(',');
    if (floats) printf("%a", atof(text));
    else printf("%d", atoi(text));
}

/* The original's and AlexeyAB's walk over a comma list. */
static void put_c_walk(const char *text, int stop_at_hash, int floats) {
    size_t count = 1;
    for (const char *p = text; *p && !(stop_at_hash && *p == '#'); ++p) count += *p == ',';
    const char *at = text;
    putchar('\t');
    for (size_t i = 0; i < count && at; ++i) {
        put_item(i, at, floats);
        const char *comma = strchr(at, ',');
        at = comma ? comma + 1 : NULL;
    }
}

/* hank-ai's runs; prints the items, then a tab and the run that ended the list (if any). */
static void put_hank_runs(const char *text, int floats) {
    const char *chars = floats ? "-.0123456789" : "-0123456789";
    char run[512];
    const char *stop = "";
    size_t count = 0;
    putchar('\t');
    for (const char *at = text + strcspn(text, chars); *at; at += strcspn(at, chars)) {
        size_t length = strspn(at, chars);
        if (length >= sizeof run) length = sizeof run - 1;
        memcpy(run, at, length);
        run[length] = '\0';
        at += length;
        char *end;
        errno = 0;
        if (floats) {
            float value = strtof(run, &end);
            if (end == run || errno == ERANGE) { stop = run; break; }
            printf(count++ ? ",%a" : "%a", value);
        } else {
            long value = strtol(run, &end, 10);
            if (end == run || errno == ERANGE || value < INT_MIN || value > INT_MAX) {
                stop = run;
                break;
            }
            printf(count++ ? ",%ld" : "%ld", value);
        }
    }
    putchar('\t');
    put_escaped(stop);
}

static void put_lists(void) {
    puts("input\tpj_ints\tpj_floats\tab_ints\tab_floats\thank_ints\thank_int_stop"
         "\thank_floats\thank_float_stop");
    for (size_t i = 0; i < sizeof LISTS / sizeof *LISTS; ++i) {
        put_escaped(LISTS[i]);
        put_c_walk(LISTS[i], 0, 0);
        put_c_walk(LISTS[i], 0, 1);
        put_c_walk(LISTS[i], 1, 0);
        put_c_walk(LISTS[i], 1, 1);
        put_hank_runs(LISTS[i], 0);
        put_hank_runs(LISTS[i], 1);
        putchar('\n');
    }
}

static char *repeated(const char *head, char digit, size_t count) {
    size_t start = strlen(head);
    char *text = malloc(start + count + 1);
    if (!text) exit(1);
    memcpy(text, head, start);
    memset(text + start, digit, count);
    text[start + count] = '\0';
    return text;
}

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "--lists") == 0) {
        put_lists();
        return 0;
    }
    puts("input\tatoi\tstrtol\tatof\tfloat_atof\tint_of_float\tstof\tstoi");
    for (size_t i = 0; i < sizeof INPUTS / sizeof *INPUTS; ++i) put_row(INPUTS[i]);
    /* digit strings longer than Python's int() accepts (4300 digits) */
    char *longs[] = {repeated("", '9', 4400), repeated("-", '9', 4400), repeated("1", '0', 400),
                     repeated("0.", '0', 400), repeated("", '0', 4400)};
    for (size_t i = 0; i < sizeof longs / sizeof *longs; ++i) {
        put_row(longs[i]);
        free(longs[i]);
    }
    return 0;
}
