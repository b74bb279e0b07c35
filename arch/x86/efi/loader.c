// SPDX-License-Identifier: GPL-2.0
/*
 * irqlab's native UEFI loader (BOOTX64.EFI), built with GNU-EFI.
 *
 * From its own volume, or else the first file system that has it (see
 * open_volume()), it loads \irqlab\kernel.elf (its PT_LOAD segments at
 * their physical addresses, see place_kernel()) and the optional
 * \irqlab\cmdline.txt beside it; UEFI load options, when they carry
 * text, replace that file.  It collects the RSDP and the GOP framebuffer,
 * sets a page below 1 MiB aside for the kernel's AP trampoline, builds
 * struct efi_handoff, exits boot services and enters the kernel's 32-bit
 * EFI entry (asm/efi_handoff.h says why).
 *
 * Any failure before ExitBootServices() is printed on ConOut and the
 * UEFI status goes back to the firmware, which then tries its next boot
 * option: a bad ESP never hangs the machine.
 */
#include <efi.h>
#include <efilib.h>
#include <elf.h>

typedef UINT8 u8;
typedef UINT32 u32;
typedef UINT64 u64;
#include "../include/asm/efi_handoff.h"

#define KERNEL_PATH	L"\\irqlab\\kernel.elf"
#define CMDLINE_PATH	L"\\irqlab\\cmdline.txt"
#define CMDLINE_MAX	2048		/* the kernel's BOOT_INFO_CMDLINE_MAX */
#define LOADER_NAME	"irqlab-efi"

#define PAGE_SIZE	4096ULL
#define PAGES(n)	(((n) + PAGE_SIZE - 1) / PAGE_SIZE)
#define SZ_4G		0x100000000ULL
/* STARTUP IPIs reach 0x1000..0x9f000 safely: the EBDA may start at 0x9fc00. */
#define TRAMPOLINE_MAX	0x9efffULL
/*
 * GetMemoryMap() after our last allocation may still grow (the firmware's
 * own events run until ExitBootServices()), and no allocation is allowed
 * between a failed ExitBootServices() and the retry: leave room.
 */
#define MMAP_SLACK_DESC	32
#define EXIT_TRIES	8

extern const char efi_enter32_start[], efi_enter32_end[];
/* enter32.S: moves len bytes from src to dst once paging is off (len 0: none). */
typedef void (*enter32_fn)(u64 handoff, u64 entry, u64 src, u64 dst, u64 len);

static EFI_HANDLE image;

/* Print "irqlab-efi: error: <what>: <status>" on ConOut, return the status. */
static EFI_STATUS fail(EFI_STATUS st, const CHAR16 *fmt, ...)
{
	va_list ap;

	Print(L"irqlab-efi: error: ");
	va_start(ap, fmt);
	VPrint((CHAR16 *)fmt, ap);
	va_end(ap);
	Print(L": %r\n", st);
	return st;
}

/*
 * After the first ExitBootServices() call only GetMemoryMap() and
 * ExitBootServices() may be used: ConOut is gone.  Best effort on COM1,
 * the port irqlab's serial console uses first.
 */
static void com1_puts(const char *s)
{
	for (; *s; s++) {
		for (int i = 0; i < 100000; i++) {
			u8 lsr;

			__asm__ volatile("inb %1, %0" : "=a"(lsr) : "Nd"((UINT16)0x3fd));
			if (lsr & 0x20)
				break;
		}
		__asm__ volatile("outb %0, %1" : : "a"(*s), "Nd"((UINT16)0x3f8));
	}
}

static EFI_STATUS alloc_below(EFI_MEMORY_TYPE type, u64 max, UINTN pages, u64 *pa)
{
	*pa = max;
	return BS->AllocatePages(AllocateMaxAddress, type, pages, pa);
}

/* The root directory of the file system on handle h. */
static EFI_STATUS open_fs(EFI_HANDLE h, EFI_FILE_HANDLE *root)
{
	EFI_FILE_IO_INTERFACE *fs;
	EFI_STATUS st;

	if (!h)
		return EFI_INVALID_PARAMETER;
	st = BS->HandleProtocol(h, &FileSystemProtocol, (void **)&fs);
	if (EFI_ERROR(st))
		return st;
	return fs->OpenVolume(fs, root);
}

static BOOLEAN has_kernel(EFI_FILE_HANDLE root)
{
	EFI_FILE_HANDLE f;

	if (EFI_ERROR(root->Open(root, &f, KERNEL_PATH, EFI_FILE_MODE_READ, 0)))
		return FALSE;
	f->Close(f);
	return TRUE;
}

/* Finish a line naming a volume with its device path, when it has one. */
static void print_device_path(EFI_HANDLE h)
{
	EFI_DEVICE_PATH *dp = DevicePathFromHandle(h);
	CHAR16 *text = dp ? DevicePathToStr(dp) : NULL;

	if (text) {
		Print(L": %s", text);
		FreePool(text);
	}
	Print(L"\n");
}

/*
 * The volume holding \irqlab\kernel.elf (and cmdline.txt beside it).
 * That is the loader's own volume when the firmware starts it from an
 * ESP (make efi).  A loader started by another boot loader may be handed
 * a device without that file system: GRUB 2.06 chainloading from a CD
 * names the whole disc, while the firmware mounts each of its El Torito
 * images as a volume of its own (make iso).  Then try every file system
 * the firmware knows, in its order, and take the first with the kernel.
 */
static EFI_STATUS open_volume(EFI_FILE_HANDLE *root)
{
	EFI_LOADED_IMAGE *li;
	EFI_HANDLE *handles;
	EFI_STATUS st;
	UINTN n, i, others = 0;

	st = BS->HandleProtocol(image, &LoadedImageProtocol, (void **)&li);
	if (EFI_ERROR(st))
		return fail(st, L"no loaded-image protocol on our own image");
	st = open_fs(li->DeviceHandle, root);
	if (!EFI_ERROR(st)) {
		if (has_kernel(*root)) {
			Print(L"irqlab-efi: kernel and command line from the loader's "
			      L"own volume");
			print_device_path(li->DeviceHandle);
			return EFI_SUCCESS;
		}
		(*root)->Close(*root);
		Print(L"irqlab-efi: the loader's volume has no %s; searching the other "
		      L"file systems\n", KERNEL_PATH);
	} else {
		Print(L"irqlab-efi: the loader's device has no file system (%r); searching "
		      L"every file system for %s\n", st, KERNEL_PATH);
	}

	st = BS->LocateHandleBuffer(ByProtocol, &FileSystemProtocol, NULL, &n, &handles);
	if (EFI_ERROR(st))
		n = 0;		/* EFI_NOT_FOUND: the firmware has no file system at all */
	for (i = 0; i < n; i++) {
		if (handles[i] == li->DeviceHandle)
			continue;	/* looked at above */
		others++;
		if (EFI_ERROR(open_fs(handles[i], root)))
			continue;
		if (has_kernel(*root)) {
			Print(L"irqlab-efi: kernel and command line from file system "
			      L"%lu of %lu", i + 1, n);
			print_device_path(handles[i]);
			FreePool(handles);
			return EFI_SUCCESS;
		}
		(*root)->Close(*root);
	}
	if (n)
		FreePool(handles);
	return fail(EFI_NOT_FOUND, L"no volume has %s, neither the loader's own nor any "
		    L"of the %lu other file systems (copy the kernel there: make efi and "
		    L"make iso do)", KERNEL_PATH, others);
}

/* Read a whole file into pool memory; EFI_NOT_FOUND is left to the caller. */
static EFI_STATUS read_file(EFI_FILE_HANDLE root, const CHAR16 *path,
			    void **data, UINTN *size)
{
	EFI_FILE_HANDLE f;
	EFI_FILE_INFO *info;
	EFI_STATUS st;
	UINTN n;

	st = root->Open(root, &f, (CHAR16 *)path, EFI_FILE_MODE_READ, 0);
	if (st == EFI_NOT_FOUND)
		return st;
	if (EFI_ERROR(st))
		return fail(st, L"cannot open %s", path);
	info = LibFileInfo(f);
	if (!info) {
		f->Close(f);
		return fail(EFI_DEVICE_ERROR, L"cannot get the size of %s", path);
	}
	n = info->FileSize;
	FreePool(info);
	*data = AllocatePool(n ? n : 1);
	if (!*data) {
		f->Close(f);
		return fail(EFI_OUT_OF_RESOURCES, L"no memory to read %s (%lu bytes)", path, n);
	}
	*size = n;
	st = f->Read(f, size, *data);
	f->Close(f);
	if (EFI_ERROR(st) || *size != n) {
		FreePool(*data);
		return fail(EFI_ERROR(st) ? st : EFI_END_OF_FILE,
			    L"cannot read %s (%lu of %lu bytes)", path, *size, n);
	}
	return EFI_SUCCESS;
}

/* The irqlab note's 32-bit entry, or 0 when kernel.elf has none. */
static u64 find_efi_entry(const u8 *file, UINTN size, const Elf64_Phdr *ph, int n)
{
	for (int i = 0; i < n; i++) {
		u64 off = ph[i].p_offset, end = off + ph[i].p_filesz;

		if (ph[i].p_type != PT_NOTE || end > size || end < off)
			continue;
		while (off + sizeof(Elf64_Nhdr) <= end) {
			const Elf64_Nhdr *nh = (const void *)(file + off);
			u64 name = off + sizeof(*nh);
			u64 desc = name + ((nh->n_namesz + 3) & ~3U);
			u64 next = desc + ((nh->n_descsz + 3) & ~3U);

			if (next > end)
				break;
			if (nh->n_type == IRQLAB_ELFNOTE_EFI_ENTRY &&
			    nh->n_namesz == sizeof(IRQLAB_ELFNOTE_NAME) && nh->n_descsz == 4 &&
			    !CompareMem((void *)(file + name), IRQLAB_ELFNOTE_NAME,
					sizeof(IRQLAB_ELFNOTE_NAME)))
				return *(const u32 *)(file + desc);
			off = next;
		}
	}
	return 0;
}

/* The kernel's place in physical memory, and where it waits if not there yet. */
struct kernel_image {
	u64 base, span;		/* page-aligned target [base, base + span) */
	u64 staged;		/* 0: loaded in place; else a copy to move there */
	u64 entry;		/* the 32-bit EFI entry (physical) */
};

/* Memory that is the firmware's until ExitBootServices() and free after. */
static BOOLEAN reclaimable_type(UINT32 type)
{
	return type == EfiBootServicesCode || type == EfiBootServicesData ||
	       type == EfiConventionalMemory;
}

/* Is [lo, hi) covered, without holes, by reclaimable descriptors of the map? */
static BOOLEAN range_reclaimable(const u8 *map, UINTN n, UINTN dsize, u64 lo, u64 hi)
{
	u64 at = lo;
	BOOLEAN progress = TRUE;

	/* The map need not be sorted: sweep until the range is covered or stuck. */
	while (at < hi && progress) {
		progress = FALSE;
		for (UINTN i = 0; i < n; i++) {
			const EFI_MEMORY_DESCRIPTOR *d = (const void *)(map + i * dsize);
			u64 end = d->PhysicalStart + d->NumberOfPages * PAGE_SIZE;

			if (reclaimable_type(d->Type) && d->PhysicalStart <= at && at < end) {
				at = end;
				progress = TRUE;
			}
		}
	}
	return at >= hi;
}

/*
 * Where the image goes.  The kernel is linked for a fixed physical address
 * (16 MiB) and is not relocatable, so first ask for exactly that range
 * with AllocateAddress.  Firmware often keeps boot-services data there
 * (OVMF: its decompressed DXE firmware volume at 9-20 MiB), which is free
 * once boot services end: then stage the image in a buffer below 4 GiB
 * and let enter32.S move it, after ExitBootServices() and with paging off,
 * when nothing of the firmware's is used any more.  Anything else there
 * (runtime services, ACPI, reserved) is an error.
 */
static EFI_STATUS place_kernel(struct kernel_image *k)
{
	UINTN n, key, dsize;
	UINT32 dver;
	EFI_MEMORY_DESCRIPTOR *map;
	u64 addr = k->base;
	BOOLEAN ok;
	EFI_STATUS st;

	st = BS->AllocatePages(AllocateAddress, EfiLoaderData, PAGES(k->span), &addr);
	if (!EFI_ERROR(st)) {
		k->staged = 0;
		return EFI_SUCCESS;
	}
	map = LibMemoryMap(&n, &key, &dsize, &dver);
	if (!map)
		return fail(EFI_OUT_OF_RESOURCES, L"cannot read the memory map");
	ok = range_reclaimable((const u8 *)map, n, dsize, k->base, k->base + k->span);
	FreePool(map);
	if (!ok)
		return fail(st, L"physical memory 0x%lx-0x%lx for %s is in use by the "
			    L"firmware beyond boot services", k->base, k->base + k->span - 1,
			    KERNEL_PATH);
	st = alloc_below(EfiLoaderData, SZ_4G - 1, PAGES(k->span), &k->staged);
	if (EFI_ERROR(st))
		return fail(st, L"no memory below 4 GiB to stage %s (%lu bytes)",
			    KERNEL_PATH, k->span);
	Print(L"irqlab-efi: 0x%lx-0x%lx holds boot-services memory: the kernel "
	      L"moves there after ExitBootServices()\n", k->base, k->base + k->span - 1);
	return EFI_SUCCESS;
}

/* Check kernel.elf and lay its PT_LOAD segments out as they must end up. */
static EFI_STATUS load_kernel(const u8 *file, UINTN size, struct kernel_image *k)
{
	const Elf64_Ehdr *eh = (const void *)file;
	const Elf64_Phdr *ph;
	u64 lo = ~0ULL, hi = 0, dst;
	int nload = 0;
	EFI_STATUS st;

	if (size < sizeof(*eh) || CompareMem((void *)eh->e_ident, ELFMAG, SELFMAG))
		return fail(EFI_LOAD_ERROR, L"%s is not an ELF file", KERNEL_PATH);
	if (eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_ident[EI_DATA] != ELFDATA2LSB ||
	    eh->e_machine != EM_X86_64 || eh->e_type != ET_EXEC)
		return fail(EFI_UNSUPPORTED, L"%s is not an x86-64 executable ELF64 "
			    L"(class %d, data %d, machine %d, type %d)", KERNEL_PATH,
			    eh->e_ident[EI_CLASS], eh->e_ident[EI_DATA], eh->e_machine,
			    eh->e_type);
	if (eh->e_phentsize != sizeof(*ph) || !eh->e_phnum ||
	    eh->e_phoff > size || (size - eh->e_phoff) / sizeof(*ph) < eh->e_phnum)
		return fail(EFI_LOAD_ERROR, L"%s: program headers missing or truncated",
			    KERNEL_PATH);
	ph = (const void *)(file + eh->e_phoff);

	for (int i = 0; i < eh->e_phnum; i++) {
		const Elf64_Phdr *p = &ph[i];

		if (p->p_type != PT_LOAD || !p->p_memsz)
			continue;
		if (p->p_filesz > p->p_memsz || p->p_offset > size ||
		    size - p->p_offset < p->p_filesz)
			return fail(EFI_LOAD_ERROR, L"%s: segment %d lies outside the file "
				    L"(truncated copy?)", KERNEL_PATH, i);
		/* head.S runs with paging off and maps the low 4 GiB only. */
		if (p->p_paddr >= SZ_4G || SZ_4G - p->p_paddr < p->p_memsz)
			return fail(EFI_UNSUPPORTED, L"%s: segment %d at physical 0x%lx is "
				    L"not below 4 GiB", KERNEL_PATH, i, p->p_paddr);
		lo = p->p_paddr < lo ? p->p_paddr : lo;
		hi = p->p_paddr + p->p_memsz > hi ? p->p_paddr + p->p_memsz : hi;
		nload++;
	}
	if (!nload)
		return fail(EFI_LOAD_ERROR, L"%s has no PT_LOAD segment", KERNEL_PATH);

	k->entry = find_efi_entry(file, size, ph, eh->e_phnum);
	if (k->entry < lo || k->entry >= hi)
		return fail(EFI_UNSUPPORTED, L"%s has no irqlab EFI entry note inside its "
			    L"image (a kernel built before the native loader?)", KERNEL_PATH);

	/* One range for all segments: they may share pages. */
	k->base = lo & ~(PAGE_SIZE - 1);
	k->span = PAGES(hi - k->base) * PAGE_SIZE;
	st = place_kernel(k);
	if (EFI_ERROR(st))
		return st;
	dst = k->staged ? k->staged : k->base;
	SetMem((void *)dst, k->span, 0);		/* .bss and the gaps */
	for (int i = 0; i < eh->e_phnum; i++) {
		const Elf64_Phdr *p = &ph[i];

		if (p->p_type == PT_LOAD && p->p_memsz)
			CopyMem((void *)(dst + p->p_paddr - k->base),
				(void *)(file + p->p_offset), p->p_filesz);
	}
	Print(L"irqlab-efi: %s: %d segments for 0x%lx-0x%lx, entry 0x%lx\n",
	      KERNEL_PATH, nload, lo, hi - 1, k->entry);
	return EFI_SUCCESS;
}

/*
 * Load options as a command line.  The UEFI shell passes the whole line,
 * the image's own name first ("irqlab.efi run=ktest"); GRUB's chainloader
 * and Boot#### entries pass just the arguments.  Boot#### entries may also
 * carry binary data, which is not a command line: ignore anything that is
 * not printable text.
 */
static BOOLEAN options_cmdline(char *out)
{
	EFI_LOADED_IMAGE *li;
	const CHAR16 *s;
	UINTN n, i = 0, o = 0;

	if (EFI_ERROR(BS->HandleProtocol(image, &LoadedImageProtocol, (void **)&li)) ||
	    !li->LoadOptions || li->LoadOptionsSize < sizeof(CHAR16))
		return FALSE;
	s = li->LoadOptions;
	n = li->LoadOptionsSize / sizeof(CHAR16);
	while (n && s[n - 1] == 0)
		n--;
	for (UINTN k = 0; k < n; k++) {
		if (s[k] < 0x20 || s[k] > 0x7e) {
			Print(L"irqlab-efi: load options are not text (%lu bytes); ignored\n",
			      li->LoadOptionsSize);
			return FALSE;
		}
	}
	while (i < n && s[i] == ' ')
		i++;
	/* A first word ending in ".efi" is the image itself (UEFI shell). */
	for (UINTN k = i; k < n && s[k] != ' '; k++) {
		if (k + 1 - i >= 4 && (k + 1 == n || s[k + 1] == ' ') &&
		    s[k - 3] == '.' && (s[k - 2] | 0x20) == 'e' &&
		    (s[k - 1] | 0x20) == 'f' && (s[k] | 0x20) == 'i') {
			i = k + 1;
			while (i < n && s[i] == ' ')
				i++;
			break;
		}
	}
	if (i == n)
		return FALSE;
	if (n - i >= CMDLINE_MAX) {
		Print(L"irqlab-efi: load options longer than %d characters; ignored\n",
		      CMDLINE_MAX - 1);
		return FALSE;
	}
	while (i < n)
		out[o++] = (char)s[i++];
	out[o] = '\0';
	return TRUE;
}

/* cmdline.txt: its first line, without trailing blanks; missing = empty. */
static EFI_STATUS file_cmdline(EFI_FILE_HANDLE root, char *out)
{
	void *data;
	UINTN size, n = 0;
	const char *s;
	EFI_STATUS st;

	out[0] = '\0';
	st = read_file(root, CMDLINE_PATH, &data, &size);
	if (st == EFI_NOT_FOUND)
		return EFI_SUCCESS;
	if (EFI_ERROR(st))
		return fail(st, L"cannot open %s", CMDLINE_PATH);
	s = data;
	while (n < size && s[n] != '\n' && s[n] != '\r')
		n++;
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	if (n >= CMDLINE_MAX) {
		FreePool(data);
		return fail(EFI_BAD_BUFFER_SIZE, L"%s: the command line has %lu characters, "
			    L"at most %d fit", CMDLINE_PATH, n, CMDLINE_MAX - 1);
	}
	for (UINTN i = 0; i < n; i++) {
		if ((u8)s[i] < 0x20 || (u8)s[i] > 0x7e) {
			FreePool(data);
			return fail(EFI_INVALID_PARAMETER, L"%s: character %lu is not "
				    L"printable ASCII", CMDLINE_PATH, i + 1);
		}
		out[i] = s[i];
	}
	out[n] = '\0';
	FreePool(data);
	return EFI_SUCCESS;
}

/* ACPI 2.0+ (XSDT) first: 1.0's RSDT holds 32-bit pointers only. */
static u64 find_rsdp(void)
{
	/* GNU-EFI's library exports the 1.0 GUID only. */
	static EFI_GUID acpi20 = ACPI_20_TABLE_GUID;
	EFI_GUID *guids[] = { &acpi20, &AcpiTableGuid };

	for (UINTN g = 0; g < 2; g++)
		for (UINTN i = 0; i < ST->NumberOfTableEntries; i++)
			if (!CompareGuid(&ST->ConfigurationTable[i].VendorGuid, guids[g]))
				return (u64)ST->ConfigurationTable[i].VendorTable;
	return 0;
}

static int mask_bits(UINT32 m)
{
	int top = 0;

	for (int b = 0; b < 32; b++)
		if (m & (1U << b))
			top = b + 1;
	return top;
}

/* A contiguous channel mask as multiboot2's position and size. */
static void mask_channel(UINT32 m, u8 *pos, u8 *size)
{
	int lo = 0;

	if (!m) {
		*pos = *size = 0;
		return;
	}
	while (!(m & (1U << lo)))
		lo++;
	*pos = lo;
	*size = mask_bits(m) - lo;
}

/*
 * GOP's current mode as multiboot2 would describe it (direct RGB), with
 * the channel positions: OVMF's BGRX and a PC's RGBX differ only there.
 */
static void find_framebuffer(struct efi_handoff *h)
{
	EFI_GRAPHICS_OUTPUT_PROTOCOL *gop;
	EFI_GRAPHICS_OUTPUT_MODE_INFORMATION *mi;
	int bpp;

	if (EFI_ERROR(BS->LocateProtocol(&GraphicsOutputProtocol, NULL, (void **)&gop)) ||
	    !gop->Mode || !gop->Mode->Info)
		return;
	mi = gop->Mode->Info;
	switch (mi->PixelFormat) {
	case PixelRedGreenBlueReserved8BitPerColor:
		bpp = 32;
		h->fb_red_pos = 0;
		h->fb_green_pos = 8;
		h->fb_blue_pos = 16;
		h->fb_red_size = h->fb_green_size = h->fb_blue_size = 8;
		break;
	case PixelBlueGreenRedReserved8BitPerColor:
		bpp = 32;
		h->fb_red_pos = 16;
		h->fb_green_pos = 8;
		h->fb_blue_pos = 0;
		h->fb_red_size = h->fb_green_size = h->fb_blue_size = 8;
		break;
	case PixelBitMask: {
		EFI_PIXEL_BITMASK *m = &mi->PixelInformation;

		bpp = mask_bits(m->RedMask | m->GreenMask | m->BlueMask | m->ReservedMask);
		bpp = (bpp + 7) & ~7;
		mask_channel(m->RedMask, &h->fb_red_pos, &h->fb_red_size);
		mask_channel(m->GreenMask, &h->fb_green_pos, &h->fb_green_size);
		mask_channel(m->BlueMask, &h->fb_blue_pos, &h->fb_blue_size);
		break;
	}
	default:		/* PixelBltOnly: no linear framebuffer to hand over */
		return;
	}
	h->fb_addr = gop->Mode->FrameBufferBase;
	h->fb_width = mi->HorizontalResolution;
	h->fb_height = mi->VerticalResolution;
	h->fb_pitch = mi->PixelsPerScanLine * (bpp / 8);
	h->fb_bpp = bpp;
	h->fb_type = 1;
}

static void set_loader_name(struct efi_handoff *h)
{
	const CHAR16 *v = ST->FirmwareVendor;
	UINTN o = 0, max = sizeof(h->loader) - 2;
	const char *p = LOADER_NAME " (";

	while (*p)
		h->loader[o++] = *p++;
	for (; v && *v && o < max; v++)
		h->loader[o++] = *v >= 0x20 && *v <= 0x7e ? (char)*v : '?';
	h->loader[o++] = ')';
	h->loader[o] = '\0';
}

EFI_STATUS efi_main(EFI_HANDLE image_handle, EFI_SYSTEM_TABLE *systab)
{
	static char cmdline[CMDLINE_MAX];
	EFI_FILE_HANDLE root;
	struct efi_handoff *h;
	void *file;
	UINTN size, map_size = 0, map_cap, key, dsize;
	UINT32 dver;
	struct kernel_image k = { 0 };
	u64 region, stub, tramp, cmd_pa, map_pa;
	EFI_STATUS st;
	int tries;

	image = image_handle;
	InitializeLib(image_handle, systab);
	Print(L"irqlab-efi: native UEFI loader\n");

	st = open_volume(&root);
	if (EFI_ERROR(st))
		return st;
	/*
	 * The command line first: a bad cmdline.txt then fails before the
	 * kernel's pages are taken, so choosing this loader again (after
	 * fixing the file from the UEFI shell) finds them free.
	 */
	if (options_cmdline(cmdline)) {
		Print(L"irqlab-efi: command line from the load options\n");
	} else {
		st = file_cmdline(root, cmdline);
		if (EFI_ERROR(st)) {
			root->Close(root);
			return st;
		}
		Print(L"irqlab-efi: command line from %s\n",
		      cmdline[0] ? CMDLINE_PATH : L"nowhere (empty)");
	}
	st = read_file(root, KERNEL_PATH, &file, &size);
	root->Close(root);
	if (st == EFI_NOT_FOUND)	/* gone since open_volume() looked */
		return fail(st, L"cannot open %s", KERNEL_PATH);
	if (EFI_ERROR(st))
		return st;
	st = load_kernel(file, size, &k);
	FreePool(file);
	if (EFI_ERROR(st))
		return st;

	/* Not fatal: the kernel looks for a low page itself when we have none. */
	if (EFI_ERROR(alloc_below(EfiLoaderData, TRAMPOLINE_MAX, 1, &tramp)) || !tramp) {
		Print(L"irqlab-efi: warning: no free page below 1 MiB for the AP "
		      L"trampoline; the kernel will look for one\n");
		tramp = 0;
	}
	st = alloc_below(EfiLoaderCode, SZ_4G - 1, 1, &stub);
	if (EFI_ERROR(st))
		return fail(st, L"no page below 4 GiB for the mode switch");
	CopyMem((void *)stub, (void *)efi_enter32_start, efi_enter32_end - efi_enter32_start);

	/*
	 * One allocation for the block, the command line and the memory map,
	 * so the kernel reserves a single range.  Size the map now and add
	 * slack for the descriptors our own allocation and later events add.
	 */
	st = BS->GetMemoryMap(&map_size, NULL, &key, &dsize, &dver);
	if (st != EFI_BUFFER_TOO_SMALL)
		return fail(st, L"GetMemoryMap() did not report its size");
	map_cap = map_size + MMAP_SLACK_DESC * dsize;
	size = sizeof(*h) + CMDLINE_MAX + map_cap;
	st = alloc_below(EfiLoaderData, SZ_4G - 1, PAGES(size), &region);
	if (EFI_ERROR(st))
		return fail(st, L"no memory below 4 GiB for the boot information (%lu bytes)",
			    size);
	SetMem((void *)region, PAGES(size) * PAGE_SIZE, 0);
	h = (void *)region;
	cmd_pa = region + sizeof(*h);
	map_pa = cmd_pa + CMDLINE_MAX;
	CopyMem((void *)cmd_pa, cmdline, CMDLINE_MAX);
	h->magic = EFI_HANDOFF_MAGIC;
	h->version = EFI_HANDOFF_VERSION;
	h->size = sizeof(*h);
	h->cmdline = cmd_pa;
	h->rsdp = find_rsdp();
	h->trampoline = tramp;
	h->data_start = region;
	h->data_end = region + size;
	find_framebuffer(h);
	set_loader_name(h);
	if (!h->rsdp)
		Print(L"irqlab-efi: warning: the firmware lists no ACPI table\n");
	Print(L"irqlab-efi: RSDP 0x%lx, framebuffer 0x%lx %dx%d, trampoline page 0x%lx, "
	      L"entering the kernel at 0x%lx\n", h->rsdp, h->fb_addr, h->fb_width,
	      h->fb_height, tramp, k.entry);

	/*
	 * The map key changes whenever the firmware's memory map does (a
	 * timer event may allocate between the two calls): fetch the map
	 * again and retry.  Nothing may print or allocate from here on.
	 */
	for (tries = 0; ; tries++) {
		map_size = map_cap;
		st = BS->GetMemoryMap(&map_size, (EFI_MEMORY_DESCRIPTOR *)map_pa, &key,
				      &dsize, &dver);
		if (EFI_ERROR(st)) {
			if (!tries)
				return fail(st, L"GetMemoryMap() failed (%lu bytes needed, "
					    L"%lu reserved)", map_size, map_cap);
			com1_puts("irqlab-efi: error: GetMemoryMap() failed after "
				  "ExitBootServices(); returning to the firmware\r\n");
			return st;
		}
		/* A staged kernel's target must still be free memory in this map. */
		if (k.staged && !range_reclaimable((const u8 *)map_pa, map_size / dsize, dsize,
						   k.base, k.base + k.span)) {
			if (!tries)
				return fail(EFI_NOT_FOUND, L"0x%lx-0x%lx is no longer boot-services "
					    L"memory", k.base, k.base + k.span - 1);
			com1_puts("irqlab-efi: error: the kernel's memory is no longer free; "
				  "returning to the firmware\r\n");
			return EFI_NOT_FOUND;
		}
		st = BS->ExitBootServices(image, key);
		if (!EFI_ERROR(st))
			break;
		if (st != EFI_INVALID_PARAMETER || tries + 1 == EXIT_TRIES) {
			if (!tries)
				return fail(st, L"ExitBootServices() failed");
			com1_puts("irqlab-efi: error: ExitBootServices() keeps failing; "
				  "returning to the firmware\r\n");
			return st;
		}
	}
	h->mmap = map_pa;
	h->mmap_nr = map_size / dsize;
	h->mmap_desc_size = dsize;
	h->mmap_desc_version = dver;

	((enter32_fn)stub)(region, k.entry, k.staged, k.base, k.staged ? k.span : 0);
	return EFI_LOAD_ERROR;		/* not reached */
}
