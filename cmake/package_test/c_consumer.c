/* Uses the installed C ABI: presets come from the install's share/dtcalc. */
#include <dtcalc.h>
#include <stdio.h>

int main(void) {
    char *json = NULL, *error = NULL;
    const int status = dtcalc_collective("kind = \"all-reduce\"\nsize = \"1MiB\"\npreset = \"astrasim-hgx-h100-validated\"\n",
                                         &json, &error);
    if (status != DTCALC_OK) {
        fprintf(stderr, "%s\n", error);
        dtcalc_free(error);
        return 1;
    }
    printf("%s", json);
    dtcalc_free(json);
    return 0;
}
