/* dtcalc's C ABI: predictions, collectives and sweeps from TOML or JSON text,
 * results as JSON text. For any language with a C FFI and for spreadsheet
 * add-ins; link with -ldtcalc.
 *
 * Every call takes the settings as text (TOML, or JSON when the first
 * non-blank character is '{') and returns a status:
 *   DTCALC_OK            *result holds the JSON (free it with dtcalc_free)
 *   DTCALC_INPUT_ERROR   the settings cannot be read; *error holds the message,
 *                        naming the key (and line) and what was expected
 *   DTCALC_FAILURE       anything else went wrong (out of memory); *error says what
 *   DTCALC_NULL_ARGUMENT a pointer argument was NULL; nothing is allocated
 * On success *error is NULL; on failure *result is NULL. The calls hold no
 * state between them and may run on several threads at once.
 *
 * The keys are the command line's with '_' for '-' (see `dtcalc predict
 * --help`, `dtcalc collective --help`, `dtcalc sweep --help`; predict's and
 * sweep's are the options of src/predict/option_schema.h by name), plus
 * preset_path and model_path: ':'-separated directories searched first. A
 * value that cannot be used is reported at its key and line.
 * Presets and models are otherwise found through $DTCALC_PRESET_PATH,
 * $DTCALC_MODEL_PATH, ./presets, ./models and the install's share/dtcalc.
 *
 *   char *json = NULL, *error = NULL;
 *   if (dtcalc_predict("model = \"llama2-70b\"\npreset = \"hgx-h100\"\ntp = 8\n", &json, &error) == DTCALC_OK)
 *       puts(json);
 *   else
 *       fprintf(stderr, "%s\n", error);
 *   dtcalc_free(json);
 *   dtcalc_free(error);
 */
#ifndef DTCALC_H
#define DTCALC_H

#ifdef __cplusplus
extern "C" {
#endif

#define DTCALC_OK 0
#define DTCALC_INPUT_ERROR 2
#define DTCALC_FAILURE 3
#define DTCALC_NULL_ARGUMENT 4

/* "0.1.0": the library's version; static storage, do not free. */
const char* dtcalc_version(void);

/* One training iteration: a scenario (model, preset, dp, tp, pp, ...), as
 * `dtcalc predict --scenario` reads it. *result: `predict --format json`'s
 * object. A plan that breaks a rule (tp must divide heads, vpp > 1 needs
 * pp > 1, ...) is DTCALC_INPUT_ERROR with "plan: " and every rule it breaks;
 * one that does not fit in memory is a result with feasible false. */
int dtcalc_predict(const char* settings, char** result, char** error);

/* One collective, or a range of sizes: kind, size ("1MiB" or "1KiB:1GiB"),
 * npus or nodes + gpus_per_node, preset or network + system or a cluster
 * from the hardware catalogue (gpu, nic, nics_per_node, nics_per_gpu, host_cpu), backend,
 * and for the nccl backend algo / proto (NCCL_ALGO / NCCL_PROTO values, as
 * the command line's --algo / --proto) and min_nchannels / max_nchannels
 * (NCCL_MIN/MAX_NCHANNELS, as --min-nchannels / --max-nchannels), and env:
 * NCCL settings as "VARIABLE=VALUE", one string or a list (as --env).
 * *result: `collective --format json`'s output. */
int dtcalc_collective(const char* settings, char** result, char** error);

/* A sweep spec (parameters, [constraints], objective, top, [[case]]), plus
 * threads and feasible_only. *result: a JSON array, one object per point. */
int dtcalc_sweep(const char* settings, char** result, char** error);

/* Frees a string the calls above returned; NULL is fine. */
void dtcalc_free(char* text);

#ifdef __cplusplus
}
#endif

#endif /* DTCALC_H */
