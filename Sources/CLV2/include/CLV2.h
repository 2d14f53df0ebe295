/*
 * The LV2 C API for the Tactus plugin (Debian lv2-dev, /usr/include/lv2), and
 * what Swift cannot import from it: the URI macros (string concatenations),
 * the atom iteration macros and the object-reading helpers (variadic), as
 * plain functions. Everything here is real-time safe: no allocation, no lock.
 */
#ifndef TACTUS_CLV2_H
#define TACTUS_CLV2_H

#include <stdbool.h>
#include <stdint.h>
#include <lv2/core/lv2.h>
#include <lv2/atom/atom.h>
#include <lv2/urid/urid.h>
#include <lv2/state/state.h>

/* The plugin's URI, as in lv2/tactus.lv2/tactus.ttl. */
#define TACTUS_LV2_URI "urn:tactus:metronome"

/* The URIDs the plugin reads and writes, mapped once in instantiate. */
typedef struct {
    LV2_URID atom_Blank, atom_Object, atom_Sequence, atom_Float, atom_Double, atom_Int, atom_Long, atom_String;
    LV2_URID midi_MidiEvent;
    LV2_URID time_Position, time_bar, time_barBeat, time_beatsPerBar, time_beatUnit, time_beatsPerMinute, time_speed;
    /* State keys (LV2 state extension): the tempo reached (atom:Float) and the
     * settings the ports do not hold (atom:String, `preset=NAME` lines). */
    LV2_URID state_tempoReached, state_settings;
} TactusURIDs;

/* The host's word in one time:Position object: what it carried (has_*), and the values. */
typedef struct {
    bool has_bar, has_bar_beat, has_beats_per_bar, has_beat_unit, has_bpm, has_speed;
    int64_t bar;
    double bar_beat, beats_per_bar, bpm, speed;
    int32_t beat_unit;
} TactusHostTime;

const char *tactus_lv2_uri(void);
/* Whether an extension_data URI is the state interface (LV2 state extension). */
bool tactus_lv2_is_state_interface(const char *uri);
/* The features' urid:map, or NULL. */
const LV2_URID_Map *tactus_lv2_find_map(const LV2_Feature *const *features);
void tactus_lv2_map_urids(const LV2_URID_Map *map, TactusURIDs *urids);

/* Iteration over an input sequence (LV2_ATOM_SEQUENCE_FOREACH). */
const LV2_Atom_Event *tactus_lv2_sequence_begin(const LV2_Atom_Sequence *sequence);
bool tactus_lv2_sequence_is_end(const LV2_Atom_Sequence *sequence, const LV2_Atom_Event *event);
const LV2_Atom_Event *tactus_lv2_sequence_next(const LV2_Atom_Event *event);
/* The event's atom (its header: size and type). */
const LV2_Atom *tactus_lv2_event_atom(const LV2_Atom_Event *event);
/* The MIDI bytes of an event (its body follows the atom header). */
const uint8_t *tactus_lv2_event_body(const LV2_Atom_Event *event);

/* Reads a time:Position object (atom:Object or atom:Blank of otype time:Position)
 * into `time`, setting has_* for what it carries. False if it is not one. */
bool tactus_lv2_read_position(const LV2_Atom *atom, const TactusURIDs *urids, TactusHostTime *time);

/* Output sequence: `capacity` is the port buffer's size in bytes, as the host
 * set it in the sequence's atom.size before run(). */
void tactus_lv2_sequence_clear(LV2_Atom_Sequence *sequence, uint32_t capacity, LV2_URID sequence_type);
/* Appends an event (frames, type, bytes); false when it does not fit. */
bool tactus_lv2_sequence_append(LV2_Atom_Sequence *sequence, uint32_t capacity, int64_t frames,
                                LV2_URID type, const void *body, uint32_t size);
/* Appends a time:Position object event carrying the fields `time` has (for hosts in the tests). */
bool tactus_lv2_sequence_append_position(LV2_Atom_Sequence *sequence, uint32_t capacity, int64_t frames,
                                         const TactusURIDs *urids, const TactusHostTime *time);

#endif
