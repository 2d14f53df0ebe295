#include "CLV2.h"
#include <string.h>
#include <lv2/atom/util.h>
#include <lv2/midi/midi.h>
#include <lv2/time/time.h>

#define TACTUS_STATE_PREFIX TACTUS_LV2_URI "#"

const char *tactus_lv2_uri(void) { return TACTUS_LV2_URI; }

bool tactus_lv2_is_state_interface(const char *uri) { return uri && strcmp(uri, LV2_STATE__interface) == 0; }

const LV2_URID_Map *tactus_lv2_find_map(const LV2_Feature *const *features) {
    for (int i = 0; features && features[i]; i++) {
        if (strcmp(features[i]->URI, LV2_URID__map) == 0) return (const LV2_URID_Map *)features[i]->data;
    }
    return NULL;
}

void tactus_lv2_map_urids(const LV2_URID_Map *map, TactusURIDs *u) {
    LV2_URID_Map_Handle h = map->handle;
    u->atom_Blank = map->map(h, LV2_ATOM__Blank);
    u->atom_Object = map->map(h, LV2_ATOM__Object);
    u->atom_Sequence = map->map(h, LV2_ATOM__Sequence);
    u->atom_Float = map->map(h, LV2_ATOM__Float);
    u->atom_Double = map->map(h, LV2_ATOM__Double);
    u->atom_Int = map->map(h, LV2_ATOM__Int);
    u->atom_Long = map->map(h, LV2_ATOM__Long);
    u->atom_String = map->map(h, LV2_ATOM__String);
    u->midi_MidiEvent = map->map(h, LV2_MIDI__MidiEvent);
    u->time_Position = map->map(h, LV2_TIME__Position);
    u->time_bar = map->map(h, LV2_TIME__bar);
    u->time_barBeat = map->map(h, LV2_TIME__barBeat);
    u->time_beatsPerBar = map->map(h, LV2_TIME__beatsPerBar);
    u->time_beatUnit = map->map(h, LV2_TIME__beatUnit);
    u->time_beatsPerMinute = map->map(h, LV2_TIME__beatsPerMinute);
    u->time_speed = map->map(h, LV2_TIME__speed);
    u->state_tempoReached = map->map(h, TACTUS_STATE_PREFIX "tempoReached");
    u->state_settings = map->map(h, TACTUS_STATE_PREFIX "settings");
}

const LV2_Atom_Event *tactus_lv2_sequence_begin(const LV2_Atom_Sequence *s) { return lv2_atom_sequence_begin(&s->body); }

bool tactus_lv2_sequence_is_end(const LV2_Atom_Sequence *s, const LV2_Atom_Event *e) {
    return lv2_atom_sequence_is_end(&s->body, s->atom.size, e);
}

const LV2_Atom_Event *tactus_lv2_sequence_next(const LV2_Atom_Event *e) { return lv2_atom_sequence_next(e); }

const LV2_Atom *tactus_lv2_event_atom(const LV2_Atom_Event *e) { return &e->body; }

const uint8_t *tactus_lv2_event_body(const LV2_Atom_Event *e) { return (const uint8_t *)(e + 1); }

/* A number of any of the atom number types. */
static bool read_number(const LV2_Atom *a, const TactusURIDs *u, double *out) {
    if (a->type == u->atom_Float && a->size >= sizeof(float)) { *out = ((const LV2_Atom_Float *)a)->body; return true; }
    if (a->type == u->atom_Double && a->size >= sizeof(double)) { *out = ((const LV2_Atom_Double *)a)->body; return true; }
    if (a->type == u->atom_Int && a->size >= sizeof(int32_t)) { *out = ((const LV2_Atom_Int *)a)->body; return true; }
    if (a->type == u->atom_Long && a->size >= sizeof(int64_t)) { *out = (double)((const LV2_Atom_Long *)a)->body; return true; }
    return false;
}

bool tactus_lv2_read_position(const LV2_Atom *atom, const TactusURIDs *u, TactusHostTime *t) {
    if (atom->type != u->atom_Object && atom->type != u->atom_Blank) return false;
    const LV2_Atom_Object *object = (const LV2_Atom_Object *)atom;
    if (object->body.otype != u->time_Position) return false;
    LV2_ATOM_OBJECT_FOREACH(object, p) {
        double v;
        if (!read_number(&p->value, u, &v)) continue;
        if (p->key == u->time_bar) { t->bar = (int64_t)v; t->has_bar = true; }
        else if (p->key == u->time_barBeat) { t->bar_beat = v; t->has_bar_beat = true; }
        else if (p->key == u->time_beatsPerBar) { t->beats_per_bar = v; t->has_beats_per_bar = true; }
        else if (p->key == u->time_beatUnit) { t->beat_unit = (int32_t)v; t->has_beat_unit = true; }
        else if (p->key == u->time_beatsPerMinute) { t->bpm = v; t->has_bpm = true; }
        else if (p->key == u->time_speed) { t->speed = v; t->has_speed = true; }
    }
    return true;
}

void tactus_lv2_sequence_clear(LV2_Atom_Sequence *s, uint32_t capacity, LV2_URID sequence_type) {
    (void)capacity;
    s->atom.type = sequence_type;
    s->atom.size = sizeof(LV2_Atom_Sequence_Body);
    s->body.unit = 0;
    s->body.pad = 0;
}

bool tactus_lv2_sequence_append(LV2_Atom_Sequence *s, uint32_t capacity, int64_t frames,
                                LV2_URID type, const void *body, uint32_t size) {
    uint32_t used = sizeof(LV2_Atom) + s->atom.size;
    uint32_t needed = lv2_atom_pad_size(sizeof(LV2_Atom_Event) + size);
    if (capacity < used || capacity - used < needed) return false;
    LV2_Atom_Event *e = (LV2_Atom_Event *)((uint8_t *)s + used);
    e->time.frames = frames;
    e->body.type = type;
    e->body.size = size;
    memcpy(e + 1, body, size);
    s->atom.size += needed;
    return true;
}


bool tactus_lv2_sequence_append_position(LV2_Atom_Sequence *s, uint32_t capacity, int64_t frames,
                                         const TactusURIDs *u, const TactusHostTime *t) {
    uint8_t object[sizeof(LV2_Atom_Object) + 6 * 32];
    LV2_Atom_Object *o = (LV2_Atom_Object *)object;
    o->atom.type = u->atom_Object;
    o->body.id = 0;
    o->body.otype = u->time_Position;
    uint32_t size = sizeof(LV2_Atom_Object_Body);
    uint8_t *at = object + sizeof(LV2_Atom_Object);
#define PUT(KEY, TYPE, FIELD, VALUE, SIZE) do { \
        LV2_Atom_Property_Body *p = (LV2_Atom_Property_Body *)at; \
        p->key = (KEY); p->context = 0; p->value.type = (TYPE); p->value.size = (SIZE); \
        memset(p + 1, 0, 8); \
        { __typeof__(VALUE) v = (VALUE); memcpy(p + 1, &v, sizeof v); } \
        uint32_t n = lv2_atom_pad_size(sizeof(LV2_Atom_Property_Body) + (SIZE)); \
        at += n; size += n; } while (0)
    if (t->has_bar) PUT(u->time_bar, u->atom_Long, l, (int64_t)t->bar, 8);
    if (t->has_bar_beat) PUT(u->time_barBeat, u->atom_Float, f, (float)t->bar_beat, 4);
    if (t->has_beats_per_bar) PUT(u->time_beatsPerBar, u->atom_Float, f, (float)t->beats_per_bar, 4);
    if (t->has_beat_unit) PUT(u->time_beatUnit, u->atom_Int, i, (int32_t)t->beat_unit, 4);
    if (t->has_bpm) PUT(u->time_beatsPerMinute, u->atom_Float, f, (float)t->bpm, 4);
    if (t->has_speed) PUT(u->time_speed, u->atom_Float, f, (float)t->speed, 4);
#undef PUT
    o->atom.size = size;
    return tactus_lv2_sequence_append(s, capacity, frames, u->atom_Object, &o->body, size);
}
